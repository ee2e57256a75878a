//! Pictures of the net section's demos.
