import torch


def scatter_max_values(arc_scores, dest_states, num_states):
    """Per-state maximum of incoming arc scores.

    Args:
        arc_scores: (B, A) float log-scores of the arcs of each lattice.
        dest_states: (B, A) int64 destination state of every arc, in [0, num_states).
        num_states: number of states S.

    Returns:
        (B, S) per-state maximum (-inf where a state has no incoming arc).
    """
    init = torch.full((arc_scores.size(0), num_states), float("-inf"), dtype=arc_scores.dtype)
    return init.scatter_reduce(-1, dest_states, arc_scores, reduce="amax", include_self=True)


def scatter_logsumexp(arc_scores, dest_states, num_states, state_scores=None, eps=1e-12):
    """Log-sum-exp of incoming arc scores per state, combined with existing state scores.

    Args:
        arc_scores: (B, A) float log-scores.
        dest_states: (B, A) int64 destination states.
        num_states: number of states S.
        state_scores: optional (B, S) log-scores already accumulated in each state.

    Returns:
        (B, S) tensor log(exp(state_scores) + sum of exp(arc_scores) per state).
    """
    max_value_per_state = scatter_max_values(arc_scores, dest_states, num_states)
    if state_scores is not None:
        max_value_per_state = torch.maximum(max_value_per_state, state_scores)
    max_per_arc = max_value_per_state.gather(-1, dest_states)
    recentered = (arc_scores - max_per_arc).exp()
    if state_scores is None:
        sums = torch.zeros_like(max_value_per_state)
    else:
        sums = (state_scores - max_value_per_state).exp()
    sums = sums.scatter_add(-1, dest_states, recentered)
    return sums.add(eps).log().add(max_value_per_state)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, num_arcs, num_states = 2, 7, 5
    arc_scores = torch.randn(batch, num_arcs)
    dest_states = torch.randint(0, num_states, (batch, num_arcs))
    state_scores = torch.randn(batch, num_states)
    forward_scores = scatter_logsumexp(arc_scores, dest_states, num_states, state_scores)
    for b in range(batch):
        for s in range(num_states):
            terms = [state_scores[b, s].item()]
            terms += [arc_scores[b, a].item() for a in range(num_arcs) if dest_states[b, a].item() == s]
            ref = torch.logsumexp(torch.tensor(terms), dim=0)
            assert torch.allclose(forward_scores[b, s], ref, atol=1e-5), (b, s)
    print("ok")
