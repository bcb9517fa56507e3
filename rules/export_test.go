package rules

// ExampleNames lists the files in rules/examples.
var ExampleNames = exampleNames
