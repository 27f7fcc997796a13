import torch
from jaxtyping import Bool, Float
from torch import Tensor


def msa_row_sizes(mask: Bool[Tensor, "1 depth tokens"]) -> Float[Tensor, "depth"]:
    return mask.sum(dim=-1).squeeze(0).float()


def subsample_msa_rows(
    mask: Bool[Tensor, "1 depth tokens"],
    select_n_rows: int = 8,
    generator: torch.Generator | None = None,
) -> Bool[Tensor, "1 depth tokens"]:
    """Keep a random subset of MSA rows, biased towards rows with more aligned residues.

    Returns the mask unchanged if the MSA already has at most `select_n_rows` non-empty rows.
    """
    msa_sizes = msa_row_sizes(mask)
    nonnull_rows_mask = msa_sizes > 0
    if select_n_rows <= 0 or int(nonnull_rows_mask.sum()) <= select_n_rows:
        return mask

    # bias towards bigger hits; empty rows get a score of 0 and are never picked first
    mask_ranking = msa_sizes * torch.rand(msa_sizes.shape, generator=generator)
    # ascending sort -> take the last (highest scoring) rows
    selected_row_indices = mask_ranking.argsort(dim=-1)[-select_n_rows:]

    selection_mask = torch.zeros_like(nonnull_rows_mask)
    selection_mask[selected_row_indices] = True
    return mask & selection_mask[None, :, None]


def reference_rows(mask, select_n_rows, seed_state):
    sizes = [sum(bool(v) for v in row) for row in mask[0].tolist()]
    gen = torch.Generator()
    gen.set_state(seed_state)
    noise = torch.rand(len(sizes), generator=gen).tolist()
    scores = [float(torch.tensor(float(s)) * torch.tensor(n)) for s, n in zip(sizes, noise)]
    order = sorted(range(len(sizes)), key=lambda i: scores[i])
    keep = set(order[-select_n_rows:])
    return [[bool(v) and (d in keep) for v in row] for d, row in enumerate(mask[0].tolist())]


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    depth, tokens = 20, 16
    msa_mask = torch.rand(1, depth, tokens, generator=gen) > 0.3
    msa_mask[:, 15:] = False  # padding rows
    state = gen.get_state()
    kept = subsample_msa_rows(msa_mask, select_n_rows=8, generator=gen)
    assert kept.shape == msa_mask.shape
    assert kept[0].tolist() == reference_rows(msa_mask, 8, state)
    assert kept.any(-1).sum().item() == 8
    print("ok")
