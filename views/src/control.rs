//! A demo's controls as plain data: what each control is, its current value
//! (from the model), and what using it sends. One renderer draws them all, so
//! every demo's buttons, switches and sliders look and behave alike.
//!
//! Using a control sends a [`Slot`]: the number the demo's [`crate::Ui`]
//! gave the control's [`Handler`] when the controls were built. Controls are
//! therefore plain, non-generic data; the live adapter fills in each
//! button's refusal by asking the model.

use crate::slot::Slot;
use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
pub enum Control {
    Button(Button),
    Toggle(Toggle),
    Choice(Choice),
    Number(Number),
    Form(Form),
    /// A labelled cluster of controls (e.g. "Driver", "Wire", "Break it").
    Group(Group),
    /// One short line of guidance.
    Note(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emphasis {
    #[default]
    Plain,
    /// The action the demo is about.
    Primary,
    /// Breaks something on purpose.
    Danger,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Button {
    /// Test hook, unique in the panel.
    pub id: String,
    /// A verb phrase: "Ring the doorbell".
    pub label: String,
    pub send: Slot,
    /// Why the model would refuse it now; the button then looks disabled,
    /// stays focusable, and says why (filled in by the live adapter).
    pub refused: Option<String>,
    pub emphasis: Emphasis,
}

/// An on/off switch. `send` sets it to the opposite of `on`.
#[derive(Clone, Debug, PartialEq)]
pub struct Toggle {
    pub id: String,
    pub label: String,
    pub on: bool,
    pub send: Slot,
    pub refused: Option<String>,
    pub emphasis: Emphasis,
}

/// One of a few options: radio buttons, or a drop-down when there are many.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub id: String,
    pub legend: String,
    pub options: Vec<Opt>,
    pub selected: usize,
    pub dropdown: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Opt {
    /// Short value, part of the test hook `{choice id}-{value}`.
    pub value: String,
    pub label: String,
    pub send: Slot,
}

/// A number applied as soon as it changes: a slider, or a field.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    pub id: String,
    pub label: String,
    pub value: i64,
    pub min: i64,
    pub max: i64,
    pub step: i64,
    /// Unit after the value ("ns", "packets").
    pub unit: String,
    /// The value as the learner reads it, when it is not just the number
    /// (a slider over an index into a list of rates, say).
    pub shown: Option<String>,
    pub slider: bool,
    pub send: Slot,
}

/// Fields filled in, then submitted: an address to DMA to, a mapping to add,
/// a litmus test to check. Field values live in the page until submitted;
/// the handler checks them as the learner types and says what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub id: String,
    pub legend: String,
    pub fields: Vec<Field>,
    pub submit: String,
    pub send: Slot,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub id: String,
    pub label: String,
    pub kind: FieldKind,
    /// Starting text ("true"/"false" for a checkbox).
    pub initial: String,
    /// A hint shown under the field (format, range).
    pub help: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    /// Several lines, monospace (a litmus test).
    Code,
    Number {
        min: i64,
        max: i64,
    },
    Check,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub label: String,
    pub controls: Vec<Control>,
    /// Draws the group as the danger zone ("Break it").
    pub danger: bool,
}

impl Group {
    /// The group's notes, in order: what it says beside its controls.
    pub fn notes(&self) -> Vec<String> {
        self.controls
            .iter()
            .filter_map(|c| match c {
                Control::Note(text) => Some(text.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A form's handler: its fields' values (in order) to a command or a reason.
pub type FormFn<C> = Rc<dyn Fn(&[String]) -> Result<C, String>>;

/// What using a control produces, from the page's input.
pub enum Handler<C> {
    /// A button, a switch, an option, a clickable shape: always the same command.
    Fixed(C),
    /// A number control: the command for this value, or why the value is wrong.
    Number(Rc<dyn Fn(i64) -> Result<C, String>>),
    /// A form: the command for these field values (in field order), or what is wrong.
    Form(FormFn<C>),
}

impl<C: Clone> Clone for Handler<C> {
    fn clone(&self) -> Self {
        match self {
            Handler::Fixed(c) => Handler::Fixed(c.clone()),
            Handler::Number(f) => Handler::Number(f.clone()),
            Handler::Form(f) => Handler::Form(f.clone()),
        }
    }
}

impl<C: fmt::Debug> fmt::Debug for Handler<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Handler::Fixed(c) => write!(f, "Fixed({c:?})"),
            Handler::Number(_) => write!(f, "Number(..)"),
            Handler::Form(_) => write!(f, "Form(..)"),
        }
    }
}

impl<C: PartialEq> PartialEq for Handler<C> {
    /// Fixed commands compare by value; closures only by identity.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Handler::Fixed(a), Handler::Fixed(b)) => a == b,
            (Handler::Number(a), Handler::Number(b)) => Rc::ptr_eq(a, b),
            (Handler::Form(a), Handler::Form(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl<C> Handler<C> {
    /// The command for a page input, or what is wrong with the input.
    pub fn resolve(&self, input: &Input) -> Result<C, String>
    where
        C: Clone,
    {
        match (self, input) {
            (Handler::Fixed(c), _) => Ok(c.clone()),
            (Handler::Number(f), Input::Number(n)) => f(*n),
            (Handler::Form(f), Input::Fields(values)) => f(values),
            _ => Err("This control did not send the kind of value it expects.".into()),
        }
    }
}

/// What the page sends along with a slot: nothing (a press), a number, or
/// the fields of a form.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    Press,
    Number(i64),
    Fields(Vec<String>),
}

/// Builders, so a demo's controls read like a list of what the learner can do.
impl Control {
    pub fn button(id: &str, label: impl Into<String>, send: Slot) -> Self {
        Control::Button(Button {
            id: id.into(),
            label: label.into(),
            send,
            refused: None,
            emphasis: Emphasis::Plain,
        })
    }

    pub fn toggle(id: &str, label: impl Into<String>, on: bool, send: Slot) -> Self {
        Control::Toggle(Toggle {
            id: id.into(),
            label: label.into(),
            on,
            send,
            refused: None,
            emphasis: Emphasis::Plain,
        })
    }

    /// Radio buttons: `(value, label, command)` per option.
    pub fn choice<V: Into<String>>(
        id: &str,
        legend: impl Into<String>,
        selected: usize,
        options: Vec<(V, String, Slot)>,
    ) -> Self {
        Control::Choice(Choice {
            id: id.into(),
            legend: legend.into(),
            selected,
            dropdown: false,
            options: options
                .into_iter()
                .map(|(value, label, send)| Opt {
                    value: value.into(),
                    label,
                    send,
                })
                .collect(),
        })
    }

    /// A slider from `min` to `max`.
    pub fn slider(
        id: &str,
        label: impl Into<String>,
        (value, min, max): (i64, i64, i64),
        unit: &str,
        send: Slot,
    ) -> Self {
        Control::Number(Number {
            id: id.into(),
            label: label.into(),
            value,
            min,
            max,
            step: 1,
            unit: unit.into(),
            shown: None,
            slider: true,
            send,
        })
    }

    /// A number field from `min` to `max`.
    pub fn number(
        id: &str,
        label: impl Into<String>,
        (value, min, max): (i64, i64, i64),
        unit: &str,
        send: Slot,
    ) -> Self {
        match Self::slider(id, label, (value, min, max), unit, send) {
            Control::Number(n) => Control::Number(Number { slider: false, ..n }),
            other => other,
        }
    }

    pub fn form(
        id: &str,
        legend: impl Into<String>,
        fields: Vec<Field>,
        submit: impl Into<String>,
        send: Slot,
    ) -> Self {
        Control::Form(Form {
            id: id.into(),
            legend: legend.into(),
            fields,
            submit: submit.into(),
            send,
        })
    }

    pub fn group(label: impl Into<String>, controls: Vec<Self>) -> Self {
        Control::Group(Group {
            label: label.into(),
            controls,
            danger: false,
        })
    }

    /// The "Break it" cluster, drawn as the danger zone.
    pub fn danger_group(label: impl Into<String>, controls: Vec<Self>) -> Self {
        Control::Group(Group {
            label: label.into(),
            controls,
            danger: true,
        })
    }

    pub fn note(text: impl Into<String>) -> Self {
        Control::Note(text.into())
    }
}

impl Control {
    /// Marks a button or switch as the primary or a dangerous one.
    pub fn emphasis(mut self, to: Emphasis) -> Self {
        match &mut self {
            Control::Button(b) => b.emphasis = to,
            Control::Toggle(t) => t.emphasis = to,
            _ => {}
        }
        self
    }

    pub fn primary(self) -> Self {
        self.emphasis(Emphasis::Primary)
    }

    pub fn danger(self) -> Self {
        self.emphasis(Emphasis::Danger)
    }

    /// Shows a number as text other than itself (`"100k pkt/s"` for index 6).
    pub fn shown(mut self, text: impl Into<String>) -> Self {
        if let Control::Number(n) = &mut self {
            n.shown = Some(text.into());
        }
        self
    }

    /// The step of a number control.
    pub fn step(mut self, step: i64) -> Self {
        if let Control::Number(n) = &mut self {
            n.step = step.max(1);
        }
        self
    }

    /// A choice drawn as a drop-down list.
    pub fn dropdown(mut self) -> Self {
        if let Control::Choice(c) = &mut self {
            c.dropdown = true;
        }
        self
    }

    /// The id a test or the renderer knows the control by.
    pub fn id(&self) -> &str {
        match self {
            Control::Button(b) => &b.id,
            Control::Toggle(t) => &t.id,
            Control::Choice(c) => &c.id,
            Control::Number(n) => &n.id,
            Control::Form(f) => &f.id,
            Control::Group(g) => &g.label,
            Control::Note(text) => text,
        }
    }

    /// Every control, depth first (groups and their contents).
    pub fn walk<'a>(controls: &'a [Control], out: &mut Vec<&'a Control>) {
        for control in controls {
            out.push(control);
            if let Control::Group(g) = control {
                Self::walk(&g.controls, out);
            }
        }
    }

    /// The control with this id, anywhere in the list.
    pub fn find<'a>(controls: &'a [Control], id: &str) -> Option<&'a Control> {
        let mut all = Vec::new();
        Self::walk(controls, &mut all);
        all.into_iter().find(|c| c.id() == id)
    }

    /// The demo's "Break it" zone, if the list has one.
    pub fn danger_zone(controls: &[Control]) -> Option<&Group> {
        controls.iter().find_map(|c| match c {
            Control::Group(g) if g.danger => Some(g),
            _ => None,
        })
    }
}

impl Field {
    pub fn text(id: &str, label: impl Into<String>, initial: impl Into<String>) -> Self {
        Field {
            id: id.into(),
            label: label.into(),
            kind: FieldKind::Text,
            initial: initial.into(),
            help: None,
        }
    }

    pub fn code(id: &str, label: impl Into<String>, initial: impl Into<String>) -> Self {
        Field {
            kind: FieldKind::Code,
            ..Field::text(id, label, initial)
        }
    }

    pub fn number(id: &str, label: impl Into<String>, initial: i64, min: i64, max: i64) -> Self {
        Field {
            kind: FieldKind::Number { min, max },
            ..Field::text(id, label, initial.to_string())
        }
    }

    pub fn check(id: &str, label: impl Into<String>, initial: bool) -> Self {
        Field {
            kind: FieldKind::Check,
            ..Field::text(id, label, if initial { "true" } else { "false" })
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}
