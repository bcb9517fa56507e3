package probe_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
)

// startNginx runs Debian's nginx on 127.0.0.1 in the foreground: www.example.com
// serves the Secret's certificate, shop.example.com a stale one (same names,
// another key), as a data plane that missed a rotation would.
func startNginx(t *testing.T, current, stale *testcert.Cert, ca *testcert.Cert) string {
	t.Helper()
	nginx := need(t, "nginx")
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	server := func(name string, c *testcert.Cert) string {
		crt := write(name+".crt", append(append([]byte{}, c.CertPEM...), ca.CertPEM...))
		key := write(name+".key", c.KeyPEM)
		return fmt.Sprintf("  server {\n    listen %s ssl;\n    server_name %s;\n    ssl_certificate %s;\n    ssl_certificate_key %s;\n    return 200 \"%s\\n\";\n  }\n", addr, name, crt, key, name)
	}
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
%[2]s%[3]s}
`, dir, server("www.example.com", current), server("shop.example.com", stale))
	cmd := exec.Command(nginx, "-c", write("nginx.conf", []byte(conf)), "-p", dir)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
	}
	logs, _ := os.ReadFile(filepath.Join(dir, "error.log"))
	t.Fatalf("nginx did not listen on %s:\n%s", addr, logs)
	return ""
}

func TestLiveProbeAgainstNginx(t *testing.T) {
	k := newPKI()
	secret := k.leaf("www.example.com", "shop.example.com")
	stale := k.leaf("www.example.com", "shop.example.com")
	addr := startNginx(t, secret, stale, k.ca)
	_, port, _ := net.SplitHostPort(addr)

	docs := shopGateway(k, "unused.example.com")
	docs[len(docs)-1] = testcert.SecretYAML("default", "shop-cert", []*testcert.Cert{secret, k.ca})
	check := func(t *testing.T, lives []probe.Live) {
		t.Helper()
		got := map[string]probe.Live{}
		for _, l := range lives {
			got[l.SNI] = l
		}
		if len(lives) != 2 {
			t.Fatalf("%d handshakes: %+v", len(lives), lives)
		}
		www, shop := got["www.example.com"], got["shop.example.com"]
		if www.Verdict != probe.VerdictOK || www.SameAsSecret == nil || !*www.SameAsSecret || www.Validity != "valid" || !www.TLS.CoversSNI {
			t.Errorf("www: %+v %v", www, www.Problems)
		}
		if shop.Verdict != probe.VerdictFinding || shop.SameAsSecret == nil || *shop.SameAsSecret || !strings.Contains(strings.Join(shop.Problems, " "), "stale certificate") {
			t.Errorf("shop (stale): %+v %v", shop, shop.Problems)
		}
		if !shop.TLS.CoversSNI {
			t.Error("the stale certificate covers shop.example.com: only its fingerprint tells it apart")
		}
	}
	t.Run("--target", func(t *testing.T) {
		lives, err := probe.LiveProbe(context.Background(), analyzeYAML(t, docs...), probe.LiveOptions{Targets: []string{addr}, Roots: k.pool, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		check(t, lives)
	})
	t.Run("--gateway: the addresses in the Gateway's status", func(t *testing.T) {
		gw := strings.Replace(docs[1], "port: 443", "port: "+port, 1) + "\nstatus:\n  addresses: [{type: IPAddress, value: 127.0.0.1}]\n"
		d := append([]string{}, docs...)
		d[1] = gw
		lives, err := probe.LiveProbe(context.Background(), analyzeYAML(t, d...), probe.LiveOptions{Gateway: model.NamespacedName{Namespace: "default", Name: "edge"}, Roots: k.pool})
		if err != nil {
			t.Fatal(err)
		}
		check(t, lives)
		if lives[0].Address != "127.0.0.1:"+port {
			t.Errorf("address %s", lives[0].Address)
		}
	})
	t.Run("a Gateway without status addresses is not guessed at", func(t *testing.T) {
		if _, err := probe.LiveProbe(context.Background(), analyzeYAML(t, docs...), probe.LiveOptions{Gateway: model.NamespacedName{Namespace: "default", Name: "edge"}}); err == nil || !strings.Contains(err.Error(), "--target") {
			t.Errorf("err = %v", err)
		}
	})
}
