"""The puzzle side: can the birds be scanned with the available pieces, and with how few.
The CP-SAT model, a plain exhaustive check of it, the library of the puzzle's solutions and
the reasons an unsolvable mission cannot be cleared."""
