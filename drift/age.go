package drift

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// existed says how long an object has existed at now, from its
// creationTimestamp: a controller that runs writes status within seconds, so
// an old object without status points at a controller that does not.
func existed(created metav1.Time, now time.Time) string {
	if created.IsZero() {
		return "its creationTimestamp is not recorded"
	}
	at := created.UTC().Format(time.RFC3339)
	d := now.Sub(created.Time)
	if d < 0 {
		return fmt.Sprintf("it was created at %s, after --now", at)
	}
	if d < time.Minute {
		return fmt.Sprintf("it has existed for %s (created %s): a controller that runs may not have caught up yet", humanDuration(d), at)
	}
	return fmt.Sprintf("it has existed for %s (created %s)", humanDuration(d), at)
}

// humanDuration writes a duration in its two largest units: 45s, 12m30s,
// 3h20m, 4d6h.
func humanDuration(d time.Duration) string {
	d = d.Round(time.Second)
	days := d / (24 * time.Hour)
	hours := (d % (24 * time.Hour)) / time.Hour
	minutes := (d % time.Hour) / time.Minute
	seconds := (d % time.Minute) / time.Second
	switch {
	case days > 0:
		return fmt.Sprintf("%dd%dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh%dm", hours, minutes)
	case minutes > 0:
		return fmt.Sprintf("%dm%ds", minutes, seconds)
	}
	return fmt.Sprintf("%ds", seconds)
}
