//! The one cache-coherence engine (MSI, MESI, MOESI on a snooping bus), shared
//! by the memory section's false-sharing demo and the CPU section's MESI demo.
