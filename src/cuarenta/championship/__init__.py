"""Championships of Cuarenta: settings, pairings, standings and the judge's score sheet at the hall."""
