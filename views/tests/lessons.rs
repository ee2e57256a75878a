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

/// Whether the shape, row or list with focus key `key` is marked in focus.
fn marked(scene: &Scene, key: &str) -> bool {
    fn shape(s: &Shape, key: &str) -> bool {
        (s.focus.as_deref() == Some(key) && s.class.split(' ').any(|c| c == "focus"))
            || matches!(&s.kind, Kind::Group { children, .. } if children.iter().any(|c| shape(c, key)))
    }
    let hot = |focus: &Option<String>, class: &str| {
        focus.as_deref() == Some(key) && class.split(' ').any(|c| c == "focus")
    };
    scene.parts.iter().any(|part| match part {
        Part::Figure(f) => f.shapes.iter().any(|s| shape(s, key)),
        Part::Table(t) => t.rows.iter().any(|r| hot(&r.focus, &r.class)),
        Part::List(l) => hot(&l.focus, &l.class),
    })
}

/// The page's view of the lesson, through `LiveDemo`, says what the lesson
/// says: its outline, each stop's state and highlight, its task and grades.
fn live_lesson_agrees<M: View>() {
    let lesson = M::lesson().expect("a lesson");
    let (mut live, notice) = views::open::<M>(None);
    assert_eq!(notice, None);
    let outline = live.lesson().expect("an outline");
    assert_eq!(outline, lesson.outline());
    assert_eq!(outline.stops.len(), lesson.stops.len());
    for (n, stop) in lesson.stops.iter().enumerate() {
        let at = stop.title;
        assert!(live.open_stop(n, true), "{at}: does not open");
        assert_eq!(
            live.link(),
            stop.state.encode(),
            "{at}: not the stop's state"
        );
        assert!(
            marked(&live.frame().scene, stop.focus),
            "{at}: {} is not highlighted",
            stop.focus
        );
        let model = stop.model().unwrap();
        assert_eq!(
            live.task_done(n),
            stop.task.as_ref().map(|t| (t.done)(&model)),
            "{at}"
        );
        match &stop.question {
            Some(question) => {
                let (right, wrong) = replies(question, &model);
                assert_eq!(live.grade(n, &right), Some(question.grade(&model, &right)));
                assert!(live.grade(n, &right).unwrap().right, "{at}");
                if let Some(wrong) = wrong {
                    assert!(!live.grade(n, &wrong).unwrap().right, "{at}");
                }
            }
            None => assert_eq!(live.grade(n, &Reply::Number(0.0)), None, "{at}"),
        }
    }
    let stops = lesson.stops.len();
    assert!(!live.open_stop(stops, true));
    assert_eq!(live.task_done(stops), None);
    assert_eq!(live.grade(stops, &Reply::Choice(0)), None);
    live.close_lesson();
    let last = lesson.stops.last().unwrap();
    assert!(
        !marked(&live.frame().scene, last.focus) || {
            // The narration may point there too; then the mark stays.
            live.narration()
                .iter()
                .any(|l| l.focus.iter().any(|f| f == last.focus))
        }
    );
}

macro_rules! lessons {
    ($($test:ident: $model:ty,)*) => {$(
        #[test]
        fn $test() {
            lesson_is_sound::<$model>();
            live_lesson_agrees::<$model>();
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

#[test]
fn a_task_done_in_the_running_demo_is_seen_done() {
    let lesson = Mesi::lesson().unwrap();
    let (n, stop) = lesson
        .stops
        .iter()
        .enumerate()
        .find(|(_, s)| s.task.is_some())
        .unwrap();
    let task = stop.task.as_ref().unwrap();
    let mut done = stop.state.clone();
    done.actions.extend((task.witness)());
    let (mut live, _) = views::open::<Mesi>(Some(&done.encode()));
    // Opened from a link at the stop, without replaying the stop's state.
    assert!(live.open_stop(n, false));
    assert_eq!(live.task_done(n), Some(true));
    assert!(live.open_stop(n, true));
    assert_eq!(live.task_done(n), Some(false));
}

#[test]
fn a_stop_number_from_a_link_is_read_defensively() {
    use views::lesson::{read_stop, stop_notice};
    assert_eq!(read_stop("1", 5), Ok(0));
    assert_eq!(read_stop("5", 5), Ok(4));
    for bad in [
        "0",
        "6",
        "-1",
        "",
        "x",
        "1.5",
        "99999999999999999999",
        " 2",
        "+2",
    ] {
        let error = read_stop(bad, 5).unwrap_err();
        let notice = stop_notice(&error);
        assert!(
            notice.ends_with("The demo opened without its lesson."),
            "{notice}"
        );
        assert!(!notice.contains(".."), "{notice}");
    }
    assert!(read_stop(&"9".repeat(500), 5).unwrap_err().chars().count() < 60);
    // The slide API's `stop` keeps the same range, and says when there is no lesson.
    assert_eq!(views::lesson::stop_index(5, 5), Ok(4));
    assert_eq!(
        views::lesson::stop_index(6, 5),
        Err("this lesson has stops 1 to 5".into())
    );
    assert_eq!(
        views::lesson::stop_index(1, 0),
        Err("this demo has no lesson".into())
    );
}
