// Package imports holds the module's import-graph test (imports_test.go):
// the rule of each package, what it may import of the module and whether it
// may know HTTP, as its doc comment states it, checked against the imports
// its files really have. It has no code; nothing imports it.
package imports
