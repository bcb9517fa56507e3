package load

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// crdResource names the CustomResourceDefinitions in RBAC's terms, for a
// message.
const crdResource = "customresourcedefinitions.apiextensions.k8s.io"

// clusterAdmission resolves the admission of a cluster's objects: the CRDs the
// cluster serves its Gateway API groups with, which the user may override with
// their own (opts.Admitter), or, when the identity may not read them, the
// built-in ones, which the returned Unreadable says.
//
// The API server admitted every object it stores, under the CRDs of the day,
// and applies its CRDs' defaults when it serves them. Validating them again
// finds only what the CRDs refuse since they changed (an upgrade that added a
// CEL rule; validation ratcheting lets the API server keep such objects), and
// costs what validating the same objects from files costs: it is done, because
// that is what breaks the next `kubectl apply` after an upgrade, and such an
// object is kept in the model, since it exists. --admission=false skips it and
// loses nothing else: there is no defaulting left to do.
func clusterAdmission(ctx context.Context, rc *rest.RESTClient, served map[schema.GroupVersionResource]bool, opts Admission) (*admission, *model.Unreadable, error) {
	if opts.Admitter != nil || opts.Off {
		adm, err := opts.resolve(true)
		return adm, nil, err
	}
	crds, forbidden, err := clusterCRDs(ctx, rc, served)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the cluster's Gateway API CustomResourceDefinitions: %w", err)
	}
	if forbidden != nil || len(crds) == 0 {
		adm, err := opts.resolve(true)
		if err != nil {
			return nil, nil, err
		}
		if forbidden != nil {
			adm.report.Note = fmt.Sprintf("the identity may not read %s: objects were held to the built-in CRDs, which may not be the cluster's", crdResource)
			return adm, &model.Unreadable{Kind: "CustomResourceDefinition", Reason: fmt.Sprintf("forbidden: the identity may not get or list %s; objects were validated against the %s instead", crdResource, adm.report.CRDs)}, nil
		}
		adm.report.Note = "the cluster serves the Gateway API without CustomResourceDefinitions: objects were held to the built-in CRDs"
		return adm, nil, nil
	}
	a, err := admit.New(admit.FromObjects("from the cluster", crds))
	if err != nil {
		return nil, nil, fmt.Errorf("the cluster's Gateway API CustomResourceDefinitions: %w", err)
	}
	opts.Admitter = a
	adm, err := opts.resolve(true)
	return adm, nil, err
}

// clusterCRD gets the CustomResourceDefinition called name. An identity that
// may list but not get (a list-only role, as for every other kind this tool
// reads) lists it by name instead.
func clusterCRD(ctx context.Context, rc *rest.RESTClient, name string) (*apiextensionsv1.CustomResourceDefinition, error) {
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	body, err := rc.Get().AbsPath(crds, name).DoRaw(ctx)
	if apierrors.IsForbidden(err) {
		listed, lerr := rc.Get().AbsPath(crds).Param("fieldSelector", "metadata.name="+name).DoRaw(ctx)
		if lerr != nil {
			return nil, err
		}
		var list apiextensionsv1.CustomResourceDefinitionList
		if uerr := json.Unmarshal(listed, &list); uerr != nil {
			return nil, fmt.Errorf("%s: %w", name, uerr)
		}
		if len(list.Items) == 0 {
			return nil, apierrors.NewNotFound(schema.GroupResource{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}, name)
		}
		return &list.Items[0], nil
	}
	if err != nil {
		return nil, err
	}
	crd := new(apiextensionsv1.CustomResourceDefinition)
	if err := json.Unmarshal(body, crd); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return crd, nil
}

// clusterCRDs gets the CustomResourceDefinition of every resource the cluster
// serves in the Gateway API's groups (resource.group is a CRD's name), at once.
// forbidden is the first refusal to let the identity get or list one; a resource
// without a CRD (served some other way) is left out.
func clusterCRDs(ctx context.Context, rc *rest.RESTClient, served map[schema.GroupVersionResource]bool) (crds []apiextensionsv1.CustomResourceDefinition, forbidden, err error) {
	names := map[string]bool{}
	for gvr := range served {
		if !strings.Contains(gvr.Resource, "/") && admit.IsGatewayAPIGroup(gvr.Group) {
			names[gvr.Resource+"."+gvr.Group] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	got := make([]*apiextensionsv1.CustomResourceDefinition, len(sorted))
	errs := make([]error, len(sorted))
	var wg sync.WaitGroup
	for i, name := range sorted {
		wg.Go(func() {
			got[i], errs[i] = clusterCRD(ctx, rc, name)
		})
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case err == nil:
			crds = append(crds, *got[i])
		case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
			if forbidden == nil {
				forbidden = err
			}
		case apierrors.IsNotFound(err):
		default:
			return nil, nil, fmt.Errorf("%s: %w", sorted[i], err)
		}
	}
	return crds, forbidden, nil
}
