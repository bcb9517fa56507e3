package ingress

import (
	"strings"

	networkingv1 "k8s.io/api/networking/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Annotations that choose an Ingress's class (networking/v1 IngressSpec.
// IngressClassName: the annotation is deprecated, but "the annotation, when
// set, is used instead"; IngressClass: "ingressclass.kubernetes.io/is-default-class
// ... Ingresses without an ingressClassName are assigned this default class").
const (
	classAnnotation   = "kubernetes.io/ingress.class"
	defaultAnnotation = networkingv1.AnnotationIsDefaultIngressClass
)

// Controller is an Ingress controller this package knows how serves: one of
// the annotation sets that describe an Ingress controller.
type Controller struct {
	Set *annotations.Set
}

// Name is the implementation's name, as its set gives it.
func (c *Controller) Name() string { return c.Set.Implementation }

// Class is how an Ingress's class was chosen, and the controller it names.
type Class struct {
	// Name is the class name, "" when the Ingress names none and no
	// IngressClass is the default.
	Name string
	// From says where the class came from: "spec.ingressClassName", the
	// annotation, "the default IngressClass", or, when the input holds no
	// IngressClass to decide, what the controller was inferred from.
	From string
	// Controller is the controller the class names; nil when it is none this
	// package knows.
	Controller *Controller
	// ControllerName is the IngressClass's spec.controller, when known.
	ControllerName string
	// Assumed says that the controller was inferred, not read from an
	// IngressClass: the input holds none for the class.
	Assumed bool
}

// classifier resolves Ingress classes against the input's IngressClasses and
// the known controllers.
type classifier struct {
	classes     map[string]*model.IngressClass
	defaults    []*model.IngressClass
	controllers []*Controller
	// forced is the controller Options name for Ingresses the input does not
	// decide, nil when none is forced.
	forced *Controller
}

func newClassifier(m *model.Model, controllers []*Controller, forced *Controller) *classifier {
	c := &classifier{classes: map[string]*model.IngressClass{}, controllers: controllers, forced: forced}
	for _, ic := range m.IngressClasses {
		c.classes[ic.Obj.Name] = ic
		if ic.Obj.Annotations[defaultAnnotation] == "true" {
			c.defaults = append(c.defaults, ic)
		}
	}
	return c
}

// classOf resolves an Ingress's class: spec.ingressClassName, else the
// deprecated annotation, else the default IngressClass (when several are
// default, the Ingress is not admitted by the API server; the first is
// taken). The class's IngressClass names the controller; when the input
// holds none, the controller is inferred: the one Options force, else the
// one whose annotations the Ingress carries, else the one whose class names
// include the class.
func (c *classifier) classOf(ing *networkingv1.Ingress) Class {
	var cl Class
	switch {
	case ing.Spec.IngressClassName != nil && *ing.Spec.IngressClassName != "":
		cl.Name, cl.From = *ing.Spec.IngressClassName, "spec.ingressClassName"
	case ing.Annotations[classAnnotation] != "":
		cl.Name, cl.From = ing.Annotations[classAnnotation], "annotation "+classAnnotation
	case len(c.defaults) > 0:
		cl.Name, cl.From = c.defaults[0].Obj.Name, "the default IngressClass"
	}
	if ic := c.classes[cl.Name]; ic != nil {
		cl.ControllerName = ic.Obj.Spec.Controller
		for _, ctl := range c.controllers {
			for _, name := range ctl.Set.Ingress.Controllers {
				if name == cl.ControllerName {
					cl.Controller = ctl
				}
			}
		}
		return cl
	}
	if cl.Name == "" && len(c.classes) > 0 {
		// The input has IngressClasses and none is the default: no
		// controller serves an Ingress without a class (IngressSpec.
		// IngressClassName).
		return cl
	}
	cl.Assumed = true
	switch ctl, why := c.infer(ing, cl.Name); {
	case ctl != nil:
		cl.Controller = ctl
		cl.From = strings.TrimPrefix(cl.From+"; ", "; ") + why
	}
	return cl
}

// infer names the controller of an Ingress whose IngressClass is not in the
// input, and why.
func (c *classifier) infer(ing *networkingv1.Ingress, class string) (*Controller, string) {
	if c.forced != nil {
		return c.forced, "controller " + c.forced.Name() + " as --ingress-controller says"
	}
	for _, ctl := range c.controllers {
		for key := range ing.Annotations {
			if ctl.Set.Owns(key) {
				return ctl, "controller " + ctl.Name() + " inferred from its annotations (no IngressClass in the input)"
			}
		}
	}
	for _, ctl := range c.controllers {
		for _, name := range ctl.Set.Ingress.Classes {
			if name == class || class == "" {
				return ctl, "controller " + ctl.Name() + " assumed for class " + displayClass(class) + " (no IngressClass in the input)"
			}
		}
	}
	return nil, ""
}

func displayClass(name string) string {
	if name == "" {
		return "(none)"
	}
	return name
}
