//! A running demo with its model type hidden: the app's page, renderer and
//! keyboard are compiled once and drive every demo through [`LiveDemo`].
//!
//! While a demo builds its scene and controls it registers each command
//! with a [`Ui`] and puts the returned [`Slot`] in the picture; the page
//! sends slots back. So scenes and controls are the same plain types for
//! every demo, and only this adapter is generic over the model.

use crate::control::{Control, Handler, Input};
use crate::scene::{Kind, Part, Scene, Shape};
use demos::{Figure, Model, NarrationLine, Scenario, Timeline, Tone};

/// What a control or a clickable shape does to a demo.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<M: View> {
    /// An action of the model (recorded, undoable, part of the share link).
    Do(M::Action),
    /// Start over with a new configuration (e.g. RX → TX, a new ring size).
    Restart(M::Config),
    /// Look at something else (a stage to edit, an outcome's graph): changes
    /// the picture, not the model, so it is not a step and not in the link.
    Look(M::Look),
}

pub use crate::slot::Slot;

/// The commands of one frame, by slot.
pub struct Ui<M: View> {
    handlers: Vec<Handler<Command<M>>>,
}

impl<M: View> Default for Ui<M> {
    fn default() -> Self {
        Ui {
            handlers: Vec::new(),
        }
    }
}

impl<M: View> Ui<M> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a handler; its slot goes into the picture.
    pub fn add(&mut self, handler: Handler<Command<M>>) -> Slot {
        self.handlers.push(handler);
        (self.handlers.len() - 1) as Slot
    }

    /// A model action.
    pub fn act(&mut self, action: M::Action) -> Slot {
        self.add(Handler::Fixed(Command::Do(action)))
    }

    /// A restart with a new configuration.
    pub fn restart(&mut self, config: M::Config) -> Slot {
        self.add(Handler::Fixed(Command::Restart(config)))
    }

    /// Looking at something else.
    pub fn look(&mut self, look: M::Look) -> Slot {
        self.add(Handler::Fixed(Command::Look(look)))
    }

    /// A number control: the command for a value, or what is wrong with it.
    pub fn number(
        &mut self,
        command: impl Fn(i64) -> Result<Command<M>, String> + 'static,
    ) -> Slot {
        self.add(Handler::Number(std::rc::Rc::new(command)))
    }

    /// A form: the command for its fields' values, or what is wrong with them.
    pub fn form(
        &mut self,
        command: impl Fn(&[String]) -> Result<Command<M>, String> + 'static,
    ) -> Slot {
        self.add(Handler::Form(std::rc::Rc::new(command)))
    }

    pub fn handler(&self, slot: Slot) -> Option<&Handler<Command<M>>> {
        self.handlers.get(slot as usize)
    }

    /// The command a slot sends for an input (what the page would do).
    pub fn resolve(&self, slot: Slot, input: &Input) -> Result<Command<M>, String> {
        self.handler(slot)
            .ok_or("That control is no longer on the page.")?
            .resolve(input)
    }
}

/// A demo's picture and controls: plain functions of its model and of what
/// the learner is looking at.
pub trait View: Model + 'static {
    /// What the learner has picked to look at, outside the model (`()` for
    /// most demos). Reset clears it; share links do not carry it.
    type Look: Clone + Default + PartialEq + std::fmt::Debug + 'static;
    fn scene(&self, look: &Self::Look, ui: &mut Ui<Self>) -> Scene;
    fn controls(&self, look: &Self::Look, ui: &mut Ui<Self>) -> Vec<Control>;
}

/// What the page draws after a change.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub scene: Scene,
    pub controls: Vec<Control>,
}

/// A running demo, whatever its model.
pub trait LiveDemo {
    /// The picture and controls of the current state. Slots in the frame stay
    /// valid until the next call.
    fn frame(&mut self) -> Frame;
    /// Uses a control or clicks a shape. `Err` says why nothing happened
    /// (a bad value, or the model's refusal, which is also narrated).
    fn send(&mut self, slot: Slot, input: &Input) -> Result<(), String>;
    /// Checks a form's fields as they are typed, without sending.
    fn check(&self, slot: Slot, input: &Input) -> Result<(), String>;
    /// One automatic step; false when the model is idle (and said why).
    fn step(&mut self) -> bool;
    fn back(&mut self) -> bool;
    fn reset(&mut self);
    fn can_back(&self) -> bool;
    fn step_count(&self) -> usize;
    fn narration(&self) -> &[NarrationLine];
    fn status(&self) -> Vec<Figure>;
    fn why(&self) -> Vec<String>;
    fn leaves_out(&self) -> &'static str;
    /// The state as a share-link value (`v1.…`).
    fn link(&self) -> String;
}

/// Opens a demo from a share-link value; a bad link opens the defaults and
/// returns the notice to show.
pub fn open<M: View>(link: Option<&str>) -> (Box<dyn LiveDemo>, Option<String>) {
    let (timeline, notice) = match link {
        None => (Timeline::new(M::Config::default()), None),
        Some(text) => match Scenario::<M>::decode(text).and_then(|s| Timeline::from_scenario(&s)) {
            Ok(timeline) => (timeline, None),
            Err(error) => (
                Timeline::new(M::Config::default()),
                Some(format!(
                    "This link could not be restored: {error}. The demo opened with its defaults."
                )),
            ),
        },
    };
    (
        Box::new(Live {
            timeline,
            look: M::Look::default(),
            ui: Ui::new(),
        }),
        notice,
    )
}

struct Live<M: View> {
    timeline: Timeline<M>,
    look: M::Look,
    /// The commands behind the slots of the last frame.
    ui: Ui<M>,
}

impl<M: View> Live<M> {
    /// Whether a form's typed values would be taken, without taking them.
    fn try_input(&self, slot: Slot, input: &Input) -> Result<(), String> {
        match self.ui.resolve(slot, input)? {
            Command::Do(action) => match self.timeline.model().refusal(&action) {
                Some(refusal) => Err(refusal.reason),
                None => Ok(()),
            },
            Command::Restart(config) => M::validate(&config),
            Command::Look(_) => Ok(()),
        }
    }

    /// Why the model would refuse a fixed action now, if it would.
    fn refusal(&self, slot: Slot) -> Option<String> {
        match self.ui.handler(slot)? {
            Handler::Fixed(Command::Do(action)) => {
                self.timeline.model().refusal(action).map(|r| r.reason)
            }
            _ => None,
        }
    }

    fn run(&mut self, command: Command<M>) -> Result<(), String> {
        match command {
            Command::Do(action) => self.timeline.apply(action).map_err(|r| r.reason),
            Command::Restart(config) => {
                self.timeline = Timeline::try_new(config)?;
                self.look = M::Look::default();
                Ok(())
            }
            Command::Look(look) => {
                self.look = look;
                Ok(())
            }
        }
    }
}

/// A form's error that names a line of what was typed, with that line
/// quoted under it (see [`crate::excerpt`]).
fn at_the_line(message: String, input: &Input) -> String {
    let Input::Fields(values) = input else {
        return message;
    };
    values
        .iter()
        .find_map(|text| crate::excerpt::point_at_line(&message, text))
        .unwrap_or(message)
}

/// Focus keys of the latest step's narration.
fn in_focus(lines: &[NarrationLine], step: usize) -> Vec<&str> {
    lines
        .iter()
        .rev()
        .take_while(|l| l.step == step)
        .filter(|l| l.tone != Tone::Refused)
        .flat_map(|l| l.focus.iter().map(String::as_str))
        .collect()
}

fn mark_focus(shape: &mut Shape, focus: &[&str]) {
    if shape.focus.as_deref().is_some_and(|f| focus.contains(&f)) {
        shape.class.push_str(" focus");
    }
    if let Kind::Group { children, .. } = &mut shape.kind {
        for child in children {
            mark_focus(child, focus);
        }
    }
}

/// Marks what the latest narration points at.
fn mark_scene(scene: &mut Scene, focus: &[&str]) {
    let hit = |f: &Option<String>| f.as_deref().is_some_and(|f| focus.contains(&f));
    for part in &mut scene.parts {
        match part {
            Part::Figure(f) => f.shapes.iter_mut().for_each(|s| mark_focus(s, focus)),
            Part::Table(t) => t
                .rows
                .iter_mut()
                .filter(|r| hit(&r.focus))
                .for_each(|r| r.class.push_str(" focus")),
            Part::List(l) => {
                if hit(&l.focus) {
                    l.class.push_str(" focus");
                }
            }
        }
    }
}

impl<M: View> LiveDemo for Live<M> {
    fn frame(&mut self) -> Frame {
        let model = self.timeline.model();
        let mut ui = Ui::new();
        let mut scene = model.scene(&self.look, &mut ui);
        debug_assert_eq!(
            scene.repeated_keys(),
            Vec::<String>::new(),
            "{}",
            scene.title
        );
        let mut controls = model.controls(&self.look, &mut ui);
        self.ui = ui;
        mark_scene(
            &mut scene,
            &in_focus(self.timeline.narration(), self.timeline.step_count()),
        );
        fill_refusals(&mut controls, &|slot| self.refusal(slot));
        Frame { scene, controls }
    }

    fn send(&mut self, slot: Slot, input: &Input) -> Result<(), String> {
        let command = self
            .ui
            .resolve(slot, input)
            .map_err(|e| at_the_line(e, input))?;
        self.run(command).map_err(|e| at_the_line(e, input))
    }

    fn check(&self, slot: Slot, input: &Input) -> Result<(), String> {
        self.try_input(slot, input)
            .map_err(|e| at_the_line(e, input))
    }

    fn step(&mut self) -> bool {
        self.timeline.step().is_ok()
    }

    fn back(&mut self) -> bool {
        self.timeline.back()
    }

    fn reset(&mut self) {
        self.timeline.reset();
        self.look = M::Look::default();
    }

    fn can_back(&self) -> bool {
        self.timeline.can_back()
    }

    fn step_count(&self) -> usize {
        self.timeline.step_count()
    }

    fn narration(&self) -> &[NarrationLine] {
        self.timeline.narration()
    }

    fn status(&self) -> Vec<Figure> {
        self.timeline.model().status()
    }

    fn why(&self) -> Vec<String> {
        self.timeline.model().why()
    }

    fn leaves_out(&self) -> &'static str {
        M::leaves_out()
    }

    fn link(&self) -> String {
        self.timeline.scenario().encode()
    }
}

/// Marks each button and switch the model would refuse, with the reason.
fn fill_refusals(controls: &mut [Control], refusal: &dyn Fn(Slot) -> Option<String>) {
    for control in controls {
        match control {
            Control::Button(b) => b.refused = refusal(b.send),
            Control::Toggle(t) => t.refused = refusal(t.send),
            Control::Group(g) => fill_refusals(&mut g.controls, refusal),
            _ => {}
        }
    }
}

/// A demo's frame built natively, with its commands: for tests.
pub fn build<M: View>(model: &M, look: &M::Look) -> (Scene, Vec<Control>, Ui<M>) {
    let mut ui = Ui::new();
    let scene = model.scene(look, &mut ui);
    debug_assert_eq!(
        scene.repeated_keys(),
        Vec::<String>::new(),
        "{}",
        scene.title
    );
    let controls = model.controls(look, &mut ui);
    (scene, controls, ui)
}
