//! Number controls that send one model action, for any demo. Every control
//! built here shares one closure type per demo, where a closure per control
//! would add its own code to the wasm.

use crate::control::Control;
use crate::live::{Command, Ui, View};
use demos::{Bound, Quantity};

/// A slider (or, with `field`, a number field) from `lo` to `hi` that sends
/// `action(value)`; the model refuses values out of its range.
pub fn knob<M: View>(
    ui: &mut Ui<M>,
    id: &str,
    label: &str,
    range: (u32, u32, u32),
    unit: &str,
    field: bool,
    action: fn(u32) -> M::Action,
) -> Control {
    let send = ui.number(move |v| Ok(Command::Do(action(v.clamp(0, i64::from(u32::MAX)) as u32))));
    let (v, lo, hi) = range;
    let range = (i64::from(v), i64::from(lo), i64::from(hi));
    if field {
        Control::number(id, label, range, unit, send)
    } else {
        Control::slider(id, label, range, unit, send)
    }
}

/// A slider (or, with `field`, a number field) whose range is the engine's
/// [`Bound`]: the model's check, its refusal and this control read one
/// declaration. The label is the control's own (it may say more than the
/// bound's noun), the range never is.
pub fn bounded<M: View, T: Quantity + 'static>(
    ui: &mut Ui<M>,
    id: &str,
    label: &str,
    bound: &Bound<T>,
    value: T,
    field: bool,
    action: fn(T) -> M::Action,
) -> Control {
    let send = ui.number(move |v| Ok(Command::Do(action(T::from_i64(v)))));
    let range = bound.control_range(value);
    let unit = bound.unit.trim_start();
    if field {
        Control::number(id, label, range, unit, send)
    } else {
        Control::slider(id, label, range, unit, send)
    }
}
