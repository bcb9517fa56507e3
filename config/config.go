// Package config reads .gwtls.yaml: how a team runs kubectl-gwtls on its
// repository. The file turns rules off or on by ID or glob and overrides their
// severity, and holds what would otherwise be repeated on every command line
// (external, supportedFeatures, controller, warnExpiry, failOn, baseline).
// Flags a user sets override the file; the file overrides the defaults.
//
// The file is read strictly: an unknown key, a value of the wrong type or a
// rule pattern that matches no rule is an error naming file:line, with the
// closest valid name. docs/configuration.md documents the format and
// schema/config.schema.json is its JSON Schema.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// FileName is the configuration file's name; Find looks for it from the
// working directory up.
const FileName = ".gwtls.yaml"

// APIVersion and Kind may head the file; when they do they must be these.
const (
	APIVersion = "gwtls.kubectl.dev/v1"
	Kind       = "Config"
)

// Config is one configuration file, as read.
type Config struct {
	// Path is the file it was read from.
	Path string
	// Rules are the rules: entries, in file order.
	Rules []RuleSetting
	// External, SupportedFeatures, Controller, WarnExpiry and FailOn are the
	// values of the flags of the same names (--external, --supported-features,
	// --controller, --warn-expiry, --fail-on), for the keys Set reports.
	External          []string
	SupportedFeatures []string
	Controller        string
	WarnExpiry        time.Duration
	FailOn            rules.Severity
	// Baseline is the baseline file (--baseline), relative to the working
	// directory: the file names it relative to itself.
	Baseline string

	set map[string]bool
}

// Set reports whether the file sets a key: only keys it sets override a
// default.
func (c *Config) Set(key string) bool { return c != nil && c.set[key] }

// Find looks for FileName in dir and each of its parents up to the filesystem
// root, as git looks for .git; "" when there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("looking for %s: %w", FileName, err)
	}
	for {
		path := filepath.Join(dir, FileName)
		switch info, err := os.Stat(path); {
		case err == nil && !info.IsDir():
			return path, nil
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return "", fmt.Errorf("looking for %s: %w", FileName, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Load reads and checks the configuration file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	return Parse(path, data)
}
