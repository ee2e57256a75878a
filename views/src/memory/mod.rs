//! Pictures of the memory section's demos.
