//! Pictures of the cpu section's demos.
