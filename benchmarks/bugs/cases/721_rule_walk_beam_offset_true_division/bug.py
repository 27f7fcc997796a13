import torch


def top_k_action(log_action_dist, r_space, e_space, batch_size, beam_size):
    """Pick the top-k actions over all beams of each example.

    Args:
        log_action_dist: [batch_size * k, action_space_size] log-probabilities.
        r_space: [batch_size * k, action_space_size] relation ids.
        e_space: [batch_size * k, action_space_size] entity ids.

    Returns:
        (next_r, next_e): [batch_size * beam_size] each,
        log_action_prob: [batch_size * beam_size],
        action_beam_offset: [batch_size * beam_size] row of the parent beam.
    """
    full_size, action_space_size = log_action_dist.shape
    k = full_size // batch_size
    flat = log_action_dist.view(batch_size, -1)
    log_action_prob, action_ind = torch.topk(flat, beam_size, dim=1)
    next_r = r_space.view(batch_size, -1).gather(1, action_ind).view(-1)
    next_e = e_space.view(batch_size, -1).gather(1, action_ind).view(-1)
    action_beam_offset = action_ind / action_space_size
    batch_start = (torch.arange(batch_size) * k).unsqueeze(1)
    action_offset = (batch_start + action_beam_offset).view(-1)
    return (next_r, next_e), log_action_prob.view(-1), action_offset


def update_beam_history(history, action_offset):
    """history: [batch_size * k, t] path of entity ids for every live beam."""
    return torch.index_select(history, 0, action_offset)


if __name__ == "__main__":
    torch.manual_seed(0)
    batch_size, k, n_actions, beam = 2, 3, 5, 3
    logits = torch.randn(batch_size * k, n_actions).log_softmax(-1)
    r_space = torch.randint(0, 20, (batch_size * k, n_actions))
    e_space = torch.randint(0, 50, (batch_size * k, n_actions))
    history = torch.randint(0, 50, (batch_size * k, 4))
    (next_r, next_e), logp, offset = top_k_action(logits, r_space, e_space, batch_size, beam)
    new_history = update_beam_history(history, offset)
    print(torch.cat([new_history, next_e.unsqueeze(1)], dim=1))
