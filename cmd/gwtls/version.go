package gwtls

// Version is the version of kubectl-gwtls, set at build time with
//
//	go build -ldflags "-X github.com/kubectl-gwtls/kubectl-gwtls/cmd/gwtls.Version=v1.2.3"
//
// and written into SARIF output as tool.driver.version.
var Version = "dev"
