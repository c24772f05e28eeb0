#include "rules/turn.h"

namespace cinq {

Result<TurnPlayed> play_items(const State& s, const TurnRequest& r,
                              const std::function<Result<bool>(Action)>& play) {
  TurnPlayed out;
  const int seat = s.seat_of(s.to_move());
  const int round = s.round();
  const std::string side(1, s.game().side_letter(s.to_move()));
  int applied = 0;
  ItemContext ctx;
  // A room's turn sent action by action continues where the last message stopped.
  if (!r.from_record && s.mid_turn()) ctx.index = 1;
  auto turn_over = [&] {
    return s.outcome().over() ||
           (applied > 0 && (s.round() != round || !s.mid_turn() || s.seat_of(s.to_move()) != seat));
  };
  for (const std::string& raw : r.items) {
    const std::string text = r.from_record ? raw : fold_spaces(raw);
    if (turn_over()) {
      // An annotation may still follow the action that ended the game (Kopf oder Knopf's `R/- e5/x c4 d7/`
      // when the strike after the penalty reaches the target): the game checks it, nothing is played.
      if (s.outcome().over()) {
        auto late = s.read_item(text, ctx);
        if (late.ok() && late->annotation) {
          ++ctx.index;
          ctx.after_annotation = true;
          continue;
        }
      }
      if (r.from_record)
        return make_error(ErrorCode::turn_already_over, {{"turn", side + "/" + text + "/"}},
                          side + "/" + text + "/: the turn is already over");
      return make_error(ErrorCode::your_turn_over, {{"item", raw}},
                        "'" + raw + "': your turn is already over");
    }
    auto item = s.read_item(text, ctx);
    ++ctx.index;
    ctx.after_annotation = item && item->annotation;
    if (ctx.after_annotation) continue;  // checked, nothing to play (Kopf oder Knopf's strike)
    std::optional<Action> found;
    if (item && s.is_legal(item->action)) {
      found = item->action;
    } else if (!r.from_record) {
      // The legal texts are the fallback for an item whose place in the turn the reader judges differently
      // when a turn comes in pieces.
      for (Action a : s.legal_actions())
        if (!a.is_end_turn() && s.action_text(a) == text) found = a;
    }
    if (!found) {
      if (!item) return item.error();
      if (r.from_record)
        return make_error(ErrorCode::not_legal_here, {{"item", text}},
                          "'" + text + "': not a legal action here");
      return make_error(ErrorCode::not_legal_now, {{"item", text}}, "'" + text + "' is not legal now");
    }
    out.texts.push_back(s.action_text(*found));
    out.actions.push_back(*found);
    if (auto played = play(*found); !played) {
      // The play's own reason, named after the item (its code and parameters are the play's).
      Error e = played.error();
      e.message = "'" + text + "': " + e.message;
      return e;
    }
    ++applied;
  }
  const bool open = !s.outcome().over() && s.seat_of(s.to_move()) == seat && s.round() == round &&
                    (s.mid_turn() || applied == 0);
  if (open && (r.whole || r.end_turn)) {
    if (!s.is_legal(Action::end_turn())) {
      if (r.from_record)
        return applied == 0
                   ? make_error(ErrorCode::turn_empty, {{"turn", side + "/"}},
                                side + "/: this turn cannot be empty")
                   : make_error(ErrorCode::turn_not_complete, {{"turn", side + "/" + r.items.back() + "/"}},
                                side + "/" + r.items.back() + "/: the turn is not complete");
      if (applied == 0 && !s.mid_turn()) return make_error(ErrorCode::cannot_pass, {}, "you cannot pass now");
      return make_error(ErrorCode::turn_cannot_end, {}, "the turn cannot end here");
    }
    if (auto played = play(Action::end_turn()); !played) return played.error();
    out.actions.push_back(Action::end_turn());
    out.ended = true;
  }
  return out;
}

}  // namespace cinq
