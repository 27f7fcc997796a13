import torch


def chosen_action_quantiles(q_eval, actions):
    """Quantile values of the executed actions.

    Args:
        q_eval (torch.FloatTensor of shape (batch_size, n_actions, n_quantiles)): online quantiles.
        actions (torch.LongTensor of shape (batch_size,)): executed actions.

    Returns:
        torch.FloatTensor of shape (batch_size, n_quantiles)
    """
    index = actions.view(-1, 1, 1).expand(-1, 1, q_eval.size(2))
    return q_eval.gather(1, index).squeeze(1)


def td_error_l1(q_eval, actions, q_target):
    """Mean absolute TD error per transition.

    Args:
        q_eval (torch.FloatTensor of shape (batch_size, n_actions, n_quantiles))
        actions (torch.LongTensor of shape (batch_size,))
        q_target (torch.FloatTensor of shape (batch_size, n_quantiles)): Bellman targets per quantile.

    Returns:
        torch.FloatTensor of shape (batch_size,)
    """
    q = chosen_action_quantiles(q_eval, actions)
    return (q_target - q).abs().mean(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    q_eval = torch.randn(8, 3, 16)
    actions = torch.randint(0, 3, (8,))
    q_target = torch.randn(8, 16)
    err = td_error_l1(q_eval, actions, q_target)
    ref = torch.tensor([
        sum(abs(q_target[b, k].item() - q_eval[b, actions[b], k].item()) for k in range(16)) / 16 for b in range(8)
    ])
    loss = err.mean()
    assert err.shape == (8,) and torch.allclose(err, ref, atol=1e-5)
    assert torch.allclose(loss, ref.mean(), atol=1e-5)
    print("ok")
