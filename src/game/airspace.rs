//! v2.x's Aircraft as the other units see it: where it leaves the table and comes back
//! ("if it goes off-table ... it may be placed back on any table edge"), and how much further
//! it is from units on the ground ("Non-aircraft units count as being an extra 12” away when
//! measuring"). Queries; `flight` moves it.

use super::live::Id;
use super::paths::Path;
use super::state::{View, EPS};
use super::table::Point;

impl<'a> View<'a> {
    /// Whether the Aircraft `id`'s straight move `path` goes off the table (its centre ends
    /// past an edge), where the edition lets Aircraft leave.
    pub fn goes_off_table(&self, id: Id, path: &Path) -> bool {
        self.rules.aircraft.is_some_and(|a| a.leaves_table) && self.info(id).movement.aircraft && !self.rules.table.holds(path.to.x, path.to.y, 0.0, 0.0)
    }

    /// v2.x: the inches a measurement from `from` to `to` gains: "Non-aircraft units count as
    /// being an extra 12” away when measuring" to an Aircraft, unless "Anti-Air: This unit
    /// doesn’t count as being an extra 12” away" (0 in the editions without it).
    pub fn measured_further(&self, from: Id, to: Id) -> f64 {
        let further = self.rules.aircraft.map_or(0.0, |a| a.measured_further);
        if further == 0.0 || !self.info(to).movement.aircraft || self.info(from).movement.aircraft {
            return 0.0;
        }
        let anti_air = self.info(from).alloc.runs.iter().any(|(m, _)| m.rules.iter().any(|r| r.name == "Anti-Air"));
        if anti_air { 0.0 } else { further }
    }

    /// Whether `id`'s disc at `p` is wholly on the table and touches an edge: where a
    /// returning Aircraft is "placed back on any table edge".
    pub fn on_an_edge(&self, id: Id, p: Point) -> bool {
        let (t, r) = (self.rules.table, self.radius(id));
        let touches = [p.x - r, t.width - r - p.x, p.y - r, t.depth - r - p.y].iter().any(|d| d.abs() <= EPS);
        t.holds(p.x, p.y, r, EPS) && touches
    }
}

