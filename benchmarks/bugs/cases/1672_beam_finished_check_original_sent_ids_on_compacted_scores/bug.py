import torch
from jaxtyping import Float, Int, Bool
from torch import Tensor


def is_finished(
    worst_finalized: Float[Tensor, "bsz"],
    num_finalized: Int[Tensor, "bsz"],
    unfinalized_scores: Float[Tensor, "active beam"],
    active_sents: Int[Tensor, "active"],
    beam_size: int,
    early_stop: bool,
) -> Bool[Tensor, "active"]:
    """Which still-active sentences can stop searching.

    `unfinalized_scores` only has rows for the sentences that are still being decoded
    (the batch is compacted when a sentence finishes); `active_sents` maps those rows back
    to their position in the original batch.
    """
    done = num_finalized[active_sents] >= beam_size
    if early_stop:
        return done
    best_unfinalized = unfinalized_scores[active_sents].max(-1).values
    return done & (worst_finalized[active_sents] >= best_unfinalized)


def search_step(state, step_scores: Float[Tensor, "active beam"], beam_size: int, early_stop: bool):
    """Record this step's best hypothesis per sentence and drop the finished sentences."""
    active = state["active_sents"]
    best = step_scores.max(-1).values
    state["num_finalized"][active] += 1
    state["worst_finalized"][active] = torch.minimum(state["worst_finalized"][active], best)
    finished = is_finished(
        state["worst_finalized"], state["num_finalized"], step_scores, active, beam_size, early_stop
    )
    state["active_sents"] = active[~finished]
    return finished


if __name__ == "__main__":
    torch.manual_seed(0)
    bsz, beam = 4, 3
    state = {
        "active_sents": torch.arange(bsz),
        "num_finalized": torch.tensor([0, 2, 0, 0]),
        "worst_finalized": torch.full((bsz,), float("inf")),
    }
    # step 1: sentence 1 already holds two hypotheses and finishes
    search_step(state, torch.randn(bsz, beam), beam_size=3, early_stop=False)
    print("active after step 1:", state["active_sents"].tolist())
    # step 2: the score tensor now only has rows for the 3 remaining sentences
    scores = torch.randn(len(state["active_sents"]), beam)
    search_step(state, scores, beam_size=3, early_stop=False)
    print("active after step 2:", state["active_sents"].tolist())
