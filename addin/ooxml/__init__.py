"""The OOXML package: A1 references, the zip reader and writer, the guard against
hostile files, and the cell XML of worksheets. Imports nothing else of addin."""
