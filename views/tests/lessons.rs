//! Every lesson, checked against its model: each stop's state replays, its
//! focus key is in the picture at that stop, each question's answer is
//! computed there (a right reply is graded right, a wrong one wrong, with
//! the model's explanation) and moves when one configuration value changes,
//! and each task can be done from its stop.

use demos::cpu::mesi::Mesi;
use demos::Timeline;
use views::lesson::{Ask, Question, Reply, Setup, Stop};
use views::scene::{Kind, Part, Scene, Shape};
use views::{build, View};

mod every_demo;

/// Stops a lesson has: enough to build to the Break-it moment, few enough to
/// finish in one sitting.
const STOPS: std::ops::RangeInclusive<usize> = 4..=8;
/// Predictions a lesson asks, at least.
const PREDICTIONS: usize = 2;

fn shape_focus<'a>(shape: &'a Shape, out: &mut Vec<&'a str>) {
    out.extend(shape.focus.as_deref());
    if let Kind::Group { children, .. } = &shape.kind {
        children.iter().for_each(|c| shape_focus(c, out));
    }
}

/// Every focus key the picture can highlight.
fn focus_keys(scene: &Scene) -> Vec<&str> {
    let mut out = Vec::new();
    for part in &scene.parts {
        match part {
            Part::Figure(f) => f.shapes.iter().for_each(|s| shape_focus(s, &mut out)),
            Part::Table(t) => out.extend(t.rows.iter().filter_map(|r| r.focus.as_deref())),
            Part::List(l) => out.extend(l.focus.as_deref()),
        }
    }
    out
}

/// A right and a wrong reply to `question` at `model`.
fn replies<M: View>(question: &Question<M>, model: &M) -> (Reply, Option<Reply>) {
    match &question.kind {
        Ask::Choice { options, right } => {
            let right = right(model);
            let wrong = (0..options.len()).find(|i| !right.contains(i));
            (Reply::Choice(right[0]), wrong.map(Reply::Choice))
        }
        Ask::Number {
            tolerance, answer, ..
        } => {
            let x = answer(model);
            (Reply::Number(x), Some(Reply::Number(x + tolerance + 1.0)))
        }
    }
}

fn check_question<M: View>(stop: &Stop<M>, question: &Question<M>, model: &M) {
    let at = stop.title;
    let answers = question.answers(model);
    assert!(!answers.is_empty(), "{at}: no right answer");
    let (right, wrong) = replies(question, model);
    let verdict = question.grade(model, &right);
    assert!(
        verdict.right,
        "{at}: the model's own answer is graded wrong"
    );
    assert!(!verdict.explain.trim().is_empty(), "{at}: no explanation");
    if let Some(wrong) = wrong {
        let verdict = question.grade(model, &wrong);
        assert!(!verdict.right, "{at}: a wrong reply is graded right");
        assert!(!verdict.explain.trim().is_empty(), "{at}: no explanation");
    }
    // The answer is the model's: with one thing about the stop's state
    // changed, the same question gets a different answer.
    let before = Setup::of(&stop.state);
    let mut setup = before.clone();
    (question.contrast)(&mut setup);
    assert_ne!(setup, before, "{at}: the contrast changes nothing");
    let other = Timeline::from_scenario(&setup.scenario())
        .unwrap_or_else(|e| panic!("{at}: the contrast does not replay: {e}"));
    assert_ne!(
        question.answers(other.model()),
        answers,
        "{at}: the answer does not move with the contrast"
    );
}

fn lesson_is_sound<M: View>() {
    let lesson = M::lesson().expect("a lesson");
    assert!(
        lesson.goal.starts_with("After this you can"),
        "{}",
        lesson.goal
    );
    assert!(
        STOPS.contains(&lesson.stops.len()),
        "{} stops",
        lesson.stops.len()
    );
    let predictions = lesson.stops.iter().filter(|s| s.question.is_some()).count();
    assert!(predictions >= PREDICTIONS, "{predictions} predictions");
    for stop in &lesson.stops {
        let at = stop.title;
        let model = stop
            .model()
            .unwrap_or_else(|e| panic!("{at}: the stop does not replay: {e}"));
        let (scene, _, _) = build(&model, &M::Look::default());
        assert!(
            focus_keys(&scene).contains(&stop.focus),
            "{at}: focus {} is not in the picture ({:?})",
            stop.focus,
            focus_keys(&scene)
        );
        if let Some(question) = &stop.question {
            check_question(stop, question, &model);
        }
        if let Some(task) = &stop.task {
            assert!(
                !(task.done)(&model),
                "{at}: the task is done before it starts"
            );
            let mut done = model.clone();
            for action in (task.witness)() {
                done.apply(&action)
                    .unwrap_or_else(|r| panic!("{at}: the task's way is refused: {}", r.reason));
            }
            assert!((task.done)(&done), "{at}: the task's way does not do it");
        }
    }
}

macro_rules! lessons {
    ($($test:ident: $model:ty,)*) => {$(
        #[test]
        fn $test() {
            lesson_is_sound::<$model>();
        }
    )*};
}

every_demo::every_demo!(lessons);

#[test]
fn an_answer_written_down_fails_the_check() {
    let lesson = Mesi::lesson().expect("a lesson");
    let stop = &lesson.stops[0];
    let written = Question::<Mesi> {
        ask: "Core A reads the line. In which state will A's copy be?",
        kind: Ask::Choice {
            options: &["M", "O", "E", "S", "I"],
            right: |_| vec![2],
        },
        explain: |_| "E".to_string(),
        contrast: |config| config.protocol = demos::coherence::Protocol::Msi,
    };
    let model = stop.model().unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check_question(stop, &written, &model)
    }));
    assert!(
        caught.is_err(),
        "a constant answer passed the contrast check"
    );
}
