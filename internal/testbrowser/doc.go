// Package testbrowser drives headless Chromium for the tests that open a
// report.html or review page the way a person does: from file://, with
// the console watched for errors and downloads saved where the test reads
// them. New skips the test, saying so, when no Chromium binary is found.
// Only tests import this package.
package testbrowser
