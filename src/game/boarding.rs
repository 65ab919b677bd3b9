//! Who may board a transport and where passengers may get out: "May transport up to X models
//! ... units may enter/exit by using any move action, but must stay fully within 6" of it when
//! exiting." Queries of the game as it stands; `transport` moves units in and out.

use super::prepare::spaces;
use super::live::Id;
use super::paths::Path;
use super::table::Point;
use super::state::View;
use super::space::Refusal;
use super::rules::{Exit, Spaces};

impl<'a> View<'a> {
    /// "must stay fully within 6" of it when exiting" (the edition's; 0 where it has no
    /// Transport, whose units then never carry any).
    pub fn exit_range(&self) -> f64 {
        self.rules.transport.map_or(0.0, |t| t.exit_range)
    }

    /// How far from a transport's footprint the middle of `id`'s disc may be when it gets out:
    /// the exit range, and (v2.x, each model's centre within it: `Exit::MoveFromHull`) the
    /// disc's radius beyond.
    pub fn exit_reach(&self, id: Id) -> f64 {
        match self.rules.transport.map(|t| t.exit) {
            Some(Exit::MoveFromHull) => self.exit_range() + self.radius(id),
            _ => self.exit_range(),
        }
    }

    /// How passengers take spaces in a transport (the edition's).
    pub fn spaces_by(&self) -> Spaces {
        self.rules.transport.map_or(Spaces::ByTough, |t| t.spaces)
    }

    /// The transport `id` is inside, if any.
    pub fn carrier(&self, id: Id) -> Option<Id> {
        self.live(id).carrier.map(|t| (id.0, usize::from(t)))
    }

    /// Where a unit leaving `transport` for `p` crosses the edge of its footprint, where its
    /// move out starts (`p` itself when it lies within the footprint: a wreck's own ground).
    pub(super) fn edge_towards(&self, transport: Id, p: Point) -> Point {
        self.live(transport).pos.towards(p, self.radius(transport))
    }

    /// The spaces the units inside `transport` take now.
    pub fn load(&self, transport: Id) -> u32 {
        (0..self.units[transport.0].len())
            .map(|u| (transport.0, u))
            .filter(|&p| self.carrier(p) == Some(transport) && !self.live(p).gone)
            .map(|p| spaces(&self.info(p).alloc, self.live(p).s, self.spaces_by()).unwrap_or(0))
            .sum()
    }

    /// Whether `id` carries any unit.
    pub fn carries(&self, id: Id) -> bool {
        self.info(id).transport > 0 && (0..self.units[id.0].len()).any(|u| self.carrier((id.0, u)) == Some(id) && !self.live((id.0, u)).gone)
    }

    /// Whether `id` may get into `transport` now: a friendly transport on the table with room
    /// for its models left, itself neither a transport nor an Aircraft.
    pub fn may_board(&self, id: Id, transport: Id) -> bool {
        let (info, t) = (self.info(id), self.info(transport));
        id.0 == transport.0
            && id != transport
            && t.transport > 0
            && self.live(transport).on_table()
            && info.transport == 0
            && !info.movement.aircraft
            && spaces(&info.alloc, self.live(id).s, self.spaces_by()).is_some_and(|n| self.load(transport) + n <= t.transport)
    }

    /// The path of a move of up to `allowance` inches that brings a model of `id` into base
    /// contact with `transport`, if any.
    pub fn boarding_path(&self, id: Id, transport: Id, allowance: f64) -> Option<Path> {
        let path = self.find_contact(id, transport, allowance)?;
        (self.closest_pair_at(id, path.to, transport).0 <= 1e-3).then_some(path)
    }

    /// Whether every model of `id`, its disc centred on `p`, stands fully within 6" of
    /// `transport` (measured to the transport's footprint); v2.x ("only move by up to 6"",
    /// `Exit::MoveFromHull`): every model's centre within 6" of the footprint.
    pub fn fully_within_exit(&self, id: Id, p: Point, transport: Id) -> bool {
        let (at, r) = (self.live(transport).pos, self.radius(transport));
        // the disc holds the models: when it is within, so are they
        let exit_range = self.exit_range();
        let whole = match self.rules.transport.map(|t| t.exit) {
            Some(Exit::MoveFromHull) => 0.0,
            _ => 1.0,
        };
        p.distance(at) + self.radius(id) <= exit_range + r + 1e-9 || self.models_at(id, p).all(|(_, q, rq)| q.distance(at) + whole * rq <= exit_range + r + 1e-9)
    }

    /// A spot for `id` fully within 6" of `transport` and 1" from every other unit, as near
    /// `goal` as it gets; `None`: no room. In each direction (every 7.5 degrees round the
    /// transport) the furthest legal spot, searched every half inch in.
    pub fn exit_spot(&self, id: Id, transport: Id, goal: Point) -> Option<Point> {
        let at = self.live(transport).pos;
        let rt = self.radius(transport);
        // a transport still on the table keeps units 1" from it; a wreck's ground is free, and
        // its units are placed ("must be placed fully within 6""), not moved: no path to the
        // spot is needed (a charger in contact would block every path from the wreck's edge)
        let wreck = !self.live(transport).on_table();
        let near = if wreck { 0.0 } else { rt + self.rules.moves.unit_gap };
        let far = self.exit_reach(id) + rt;
        // (every spot tried is within `far` of the transport: the units out of reach of all of
        // them are left out)
        let crowd = self.crowd_near(id, at, far);
        let (r, gap) = (self.radius(id), self.rules.moves.unit_gap);
        let mut along = Vec::new();
        // each direction's spot is somewhere on its ray between `near` and `far`: no nearer the
        // goal than the ray is, so the directions are searched nearest first and the search
        // stops once no ray left can beat the best spot (the spot found is the same as a full
        // search's, ties going to the first direction)
        // (bound, direction, its sine and cosine)
        let mut rays: [(f64, usize, f64, f64); EXIT_DIRECTIONS] = [(0.0, 0, 0.0, 0.0); EXIT_DIRECTIONS];
        for (k, ray) in rays.iter_mut().enumerate() {
            let (sin, cos) = (k as f64 * std::f64::consts::TAU / EXIT_DIRECTIONS as f64).sin_cos();
            let (a, b) = (Point::new(at.x + cos * near, at.y + sin * near), Point::new(at.x + cos * far, at.y + sin * far));
            *ray = (goal.distance_to_segment(a, b), k, sin, cos);
        }
        rays.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best: Option<(f64, usize, Point)> = None;
        for &(bound, k, sin, cos) in &rays {
            if best.is_some_and(|(b, _, _)| bound > b + 1e-9) {
                break;
            }
            // every way out along this direction starts at the same point of the transport's
            // footprint: where the unit may not even stand there, no spot along it is reached
            // (a wreck's ground is free: spots nearer than its edge start where they are);
            // asked once a spot where it may stand is found (most directions have none)
            let start = Point::new(at.x + cos * rt, at.y + sin * rt);
            let mut leaves: Option<bool> = (near < rt).then_some(true);
            // (the units that may come near a spot along it, `spot_ok_in_crowd` for those alone)
            crowd.ray(r, gap, at, (cos, sin), &mut along);
            // the furthest legal spot out along this direction
            let mut d = far;
            while d >= near {
                let p = Point::new(at.x + cos * d, at.y + sin * d);
                let stands = self.fully_within_exit(id, p, transport)
                    && match self.refusal_given(id, p, || crowd.first_clash_on_line(&along, d, r, p, gap)) {
                        None => true,
                        // the spots further in where the same two models stay that near fail
                        // too: passed over at once (`d` steps down exactly: halves of an inch)
                        Some(Refusal::Clash(hit)) => {
                            let steps = ((d - near) / 0.5).floor().max(0.0) as usize;
                            let skip = crowd.clash_steps(hit, r, p, gap, (-cos, -sin), 0.5, steps, |n| {
                                let d = d - n as f64 * 0.5;
                                Point::new(at.x + cos * d, at.y + sin * d)
                            });
                            d -= skip as f64 * 0.5;
                            false
                        }
                        Some(Refusal::Table) => false,
                    };
                if stands && !*leaves.get_or_insert_with(|| self.path_ok_leaving(id, start, start, None, Some(transport))) {
                    break;
                }
                if stands && (wreck || self.path_ok_leaving(id, self.edge_towards(transport, p), p, None, Some(transport))) {
                    let left = p.distance(goal);
                    if best.is_none_or(|(b, bk, _)| left < b || (left == b && k < bk)) {
                        best = Some((left, k, p));
                    }
                    break;
                }
                d -= 0.5;
            }
        }
        best.map(|(_, _, p)| p)
    }

    /// A spot for `id`, thrown out of the destroyed `transport`, fully within 6" of it and 1"
    /// from every other unit, as near `goal` as it gets: `exit_spot`'s rays, else every spot
    /// of a quarter-inch grid over the 6" round the wreck ("must be placed fully within 6" of
    /// the transport": placed anywhere there, not only where a ray from its middle reaches).
    /// `None`: no room for the unit as it stands.
    pub fn wreck_spot(&self, id: Id, transport: Id, goal: Point) -> Option<Point> {
        if let Some(p) = self.exit_spot(id, transport, goal) {
            return Some(p);
        }
        let at = self.live(transport).pos;
        let far = self.exit_reach(id) + self.radius(transport);
        let crowd = self.crowd_near(id, at, far);
        let steps = (far / WRECK_GRID).ceil() as i32;
        let mut best: Option<(f64, Point)> = None;
        for i in -steps..=steps {
            for j in -steps..=steps {
                let p = Point::new(at.x + f64::from(i) * WRECK_GRID, at.y + f64::from(j) * WRECK_GRID);
                let left = p.distance(goal);
                if p.distance(at) <= far && best.is_none_or(|(b, _)| left < b) && self.fully_within_exit(id, p, transport) && self.spot_ok_in_crowd(id, p, false, &crowd) {
                    best = Some((left, p));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// The charge of `id` out of `transport` into base contact with `target`, if it can make
    /// one: from the transport's footprint in a straight line, within its charge reach (6"
    /// through difficult terrain) and round nothing it may not cross, ending with every model
    /// fully within 6" of the transport, on the side of the target facing it.
    pub fn charge_out(&self, id: Id, transport: Id, target: Id) -> Option<Path> {
        let (at, tp) = (self.live(transport).pos, self.live(target).pos);
        let contact = self.radius(id) + self.radius(target);
        let reach = self.charge_reach(id, target);
        let base = (at.y - tp.y).atan2(at.x - tp.x);
        for turn in [0.0, 0.3, -0.3, 0.6, -0.6, 0.9, -0.9] {
            let (sin, cos) = (base + turn).sin_cos();
            let mut p = Point::new(tp.x + cos * contact, tp.y + sin * contact);
            // close the gap between the nearest models (discs hold the models)
            for _ in 0..3 {
                let (gap, ours, theirs) = self.closest_pair_at(id, p, target);
                if gap <= 1e-6 {
                    break;
                }
                let len = ours.distance(theirs).max(1e-9);
                p = Point::new(p.x + (theirs.x - ours.x) * gap / len, p.y + (theirs.y - ours.y) * gap / len);
            }
            let from = self.edge_towards(transport, p);
            let length = from.distance(p);
            // the cheap tests first, the terrain on the way last
            if length > reach || self.closest_pair_at(id, p, target).0 > 1e-3 || !self.fully_within_exit(id, p, transport) || !self.spot_ok(id, p, true) {
                continue;
            }
            let (difficult, dangerous) = self.terrain_on_legs(id, from, &super::paths::Bends::NONE, p);
            if length <= self.rules.move_limit(reach, difficult) && self.path_ok_leaving(id, from, p, Some(target), Some(transport)) {
                return Some(Path { to: p, via: super::paths::Bends::NONE, length, difficult, dangerous });
            }
        }
        None
    }
}

/// The step of `wreck_spot`'s grid, in inches.
const WRECK_GRID: f64 = 0.25;

/// The directions round a transport an exit spot is searched in (every 7.5 degrees).
const EXIT_DIRECTIONS: usize = 48;
