//! v2.x's Aircraft off the table: "When activated this model must always move 18”-36” in a
//! straight line, and if it goes off-table then its activation ends and it may be placed
//! back on any table edge" (`Aircraft::leaves_table`).

use super::config::Event;
use super::decisions::Player;
use super::live::Id;
use super::paths::Path;
use super::play::Game;
use super::state::EPS;

impl<'a, P: Player> Game<'a, P> {
    /// The Aircraft `id` flies `path` off the table: the move (18" to `allowance`, straight)
    /// ends its activation (no shooting, no casting after it), and it is placed back touching
    /// the edge its player picks. It keeps no distance from units ("doesn’t interact
    /// physically with other models"), and is on the table at once (it counts at markers).
    pub(super) fn fly_off(&mut self, id: Id, path: Path, allowance: f64) {
        let from = self.live(id).pos;
        let least = self.rules.aircraft.map_or(0.0, |a| a.least_move);
        if path.length > allowance + EPS || path.length < least - EPS || (from.distance(path.to) - path.length).abs() > EPS {
            self.violation(|| format!("unit {id:?} flew {:.3}\" off the table to ({:.2}, {:.2}), {least}\" to {allowance}\" in a straight line allowed", path.length, path.to.x, path.to.y));
        }
        self.event(|_| Event { allowance, length: path.length, ..Event::of("off-table", id, from, path.to) });
        let back = self.ask(|p, v, r| p.reentry_spot(v, r, id));
        if !self.on_an_edge(id, back) {
            self.violation(|| format!("unit {id:?} came back at ({:.2}, {:.2}), not touching a table edge", back.x, back.y));
        }
        let live = self.live_mut(id);
        live.pos = back;
        live.moved = true;
        self.event(|g| Event { models: g.footprint(id), ..Event::of("re-enter", id, path.to, back) });
    }
}
