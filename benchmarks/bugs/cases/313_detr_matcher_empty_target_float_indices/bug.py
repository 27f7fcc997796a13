from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float, Int


def greedy_match(cost: Float[Tensor, "q t"]) -> tuple[list[int], list[int]]:
    rows, cols = [], []
    cost = cost.clone()
    for _ in range(min(cost.shape)):
        flat = int(cost.argmin())
        r, c = divmod(flat, cost.size(1))
        rows.append(r)
        cols.append(c)
        cost[r, :] = float("inf")
        cost[:, c] = float("inf")
    return rows, cols


def match(pred_boxes: Float[Tensor, "b q 4"], targets: list[dict]) -> list[tuple[Tensor, Tensor]]:
    indices = []
    for b, tgt in enumerate(targets):
        cost = torch.cdist(pred_boxes[b], tgt["boxes"], p=1)
        i, j = greedy_match(cost)
        indices.append((torch.as_tensor(i), torch.as_tensor(j)))
    return indices


def get_src_permutation_idx(indices: list[tuple[Tensor, Tensor]]) -> tuple[Tensor, Tensor]:
    batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
    src_idx = torch.cat([src for (src, _) in indices])
    return batch_idx, src_idx


def loss_boxes(pred_boxes: Float[Tensor, "b q 4"], targets: list[dict], num_boxes: int) -> Float[Tensor, ""]:
    indices = match(pred_boxes, targets)
    idx = get_src_permutation_idx(indices)
    src_boxes = pred_boxes[idx]
    target_boxes = torch.cat([t["boxes"][i] for t, (_, i) in zip(targets, indices)], dim=0)
    return F.l1_loss(src_boxes, target_boxes, reduction="sum") / num_boxes


def main():
    torch.manual_seed(0)
    pred_boxes = torch.rand(3, 10, 4)
    targets = [
        {"boxes": torch.rand(3, 4)},
        {"boxes": torch.zeros(0, 4)},
        {"boxes": torch.rand(2, 4)},
    ]
    print("L1 box loss:", loss_boxes(pred_boxes, targets, num_boxes=5).item())


if __name__ == "__main__":
    main()
