package change_test

import "time"

// now pins the clock, as --now does, for certificate expiry.
var now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const warnExpiry = 30 * 24 * time.Hour
