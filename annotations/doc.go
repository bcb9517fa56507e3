// Package annotations checks implementation-specific annotations on Gateway
// API objects, such as Gwin's `gwin.yandex.cloud/...` annotations on
// TLSRoutes (spec 001).
//
// What each implementation accepts is data, not code: one YAML file per
// implementation under sets/ (embedded in the binary) lists the annotation
// prefix, every documented key with its type and the section of the reference
// it comes from. The checks here are generic over those sets, so supporting
// another implementation means adding a file to sets/.
//
// Problems never quote PEM data or long values: a value is cut to about 40
// characters and a PEM bundle is described by block number only.
package annotations
