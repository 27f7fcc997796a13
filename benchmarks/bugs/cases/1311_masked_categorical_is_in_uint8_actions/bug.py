import torch


class MaskedCategoricalSpec:
    """Discrete action spec over ``n`` actions with an optional availability mask.

    Args:
        n (int): number of possible actions.
        shape (torch.Size): batch shape of the spec, e.g. ``(num_envs,)``.
        dtype (torch.dtype): dtype of the action tensors produced by the env.
        mask (torch.Tensor, optional): boolean tensor of shape ``(*shape, n)``;
            ``mask[..., a]`` is True when action ``a`` is legal.
    """

    def __init__(self, n, shape, dtype=torch.long, mask=None):
        self.n = n
        self.shape = torch.Size(shape)
        self.dtype = dtype
        self.mask = mask if mask is not None else torch.ones(*shape, n, dtype=torch.bool)

    def update_mask(self, mask):
        self.mask = mask.clone()

    def is_in(self, val):
        """Checks that ``val`` only holds legal actions.

        Args:
            val (torch.Tensor): integer actions of shape ``(*shape,)``, in ``self.dtype``.

        Returns:
            bool: True if every action lies in ``[0, n)`` and is unmasked.
        """
        if ((val < 0) | (val >= self.n)).any():
            return False
        shape = torch.broadcast_shapes(self.mask.shape[:-1], val.shape)
        mask_expand = self.mask.expand(*shape, self.n)
        gathered = mask_expand.gather(-1, val.unsqueeze(-1))
        return bool(gathered.all())


if __name__ == "__main__":
    torch.manual_seed(0)
    num_envs, n_actions = 6, 9
    spec = MaskedCategoricalSpec(n_actions, (num_envs,), dtype=torch.uint8)
    legal = torch.rand(num_envs, n_actions) > 0.4
    legal[:, 0] = True
    spec.update_mask(legal)
    actions = torch.multinomial(legal.float(), 1).squeeze(-1).to(spec.dtype)
    bad = actions.clone()
    bad[2] = int((~legal[2]).nonzero()[0])
    print("legal actions in spec:", spec.is_in(actions))
    print("illegal actions in spec:", spec.is_in(bad))
