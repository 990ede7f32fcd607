"""The physics of a run: the catalog schema, workloads, FLOPs, MFU, goodput, memory and serving speed."""
