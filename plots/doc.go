// Package plots draws predict's charts with gonum/plot from the result types
// of package report, and writes them as PNG or SVG.
//
//	Speedup     speedup against P: one curve per ppn, Amdahl, Gustafson and
//	            the ideal line; log2 P axis when P runs over powers of two
//	Efficiency  parallel efficiency against P, with the threshold that ends
//	            the scalability range
//	Validation  actual and predicted speedup (or time) against P with their
//	            absolute difference, as in the ParJava papers' figures
//	Timeline    a Gantt chart: one row per rank, compute / MPI / wait colours;
//	            segments below the drawing's resolution are binned
//	LostTime    per-rank stacked bars: productive time, communications,
//	            idle time, insufficient parallelism
//	Save, Write render a plot to a file (atomically) or a writer
//
// Titles hold the program, machine and arguments and no date, and the SVG
// output of gonum/plot is byte-stable, so identical reports give identical
// files (the golden tests check this).
package plots
