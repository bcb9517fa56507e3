package change

// CompareAll is Compare deciding every row: the oracle of its tests.
var CompareAll = compareAll
