# Release path: `make dist` cross-compiles the six platforms, packs the archives,
# writes dist/checksums.txt and renders the krew manifest dist/gwtls.yaml.
# See hack/dist.sh for the variables (VERSION, PLATFORMS, URL, ...).
.PHONY: build test dist validate-krew clean

build:
	go build -o bin/kubectl-gwtls ./cmd/kubectl-gwtls

test:
	./hack/test.sh

dist:
	./hack/dist.sh

# krew's own validator (a separate build: it is not a dependency in go.mod).
validate-krew: dist
	go run sigs.k8s.io/krew/cmd/validate-krew-manifest@v0.4.3 -manifest dist/gwtls.yaml -skip-install

clean:
	rm -rf dist bin
