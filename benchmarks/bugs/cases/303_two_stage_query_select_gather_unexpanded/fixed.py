from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float, Int


class TwoStageQuerySelector(nn.Module):
    def __init__(self, d_model: int, num_classes: int, num_queries: int):
        super().__init__()
        self.num_queries = num_queries
        self.enc_score = nn.Linear(d_model, num_classes)
        self.enc_box = nn.Linear(d_model, 4)
        self.query_pos = nn.Linear(4, d_model)

    def select(
        self, memory: Float[Tensor, "b hw d"], topk_idx: Int[Tensor, "b k"]
    ) -> tuple[Float[Tensor, "b k d"], Float[Tensor, "b k 4"]]:
        boxes = self.enc_box(memory).sigmoid()
        ref_boxes = boxes.gather(1, topk_idx.unsqueeze(-1).repeat(1, 1, 4))
        content = memory.gather(1, topk_idx.unsqueeze(-1).expand(-1, -1, memory.size(-1)))
        return content.detach(), ref_boxes.detach()

    def forward(self, memory: Float[Tensor, "b hw d"]) -> Float[Tensor, "b k d"]:
        scores = self.enc_score(memory).max(-1).values
        topk_idx = scores.topk(self.num_queries, dim=1).indices
        content, ref_boxes = self.select(memory, topk_idx)
        return content + self.query_pos(ref_boxes)


def main():
    torch.manual_seed(0)
    selector = TwoStageQuerySelector(d_model=32, num_classes=5, num_queries=6)
    memory = torch.randn(2, 50, 32)
    queries = selector(memory)
    topk_idx = selector.enc_score(memory).max(-1).values.topk(6, dim=1).indices
    content, _ = selector.select(memory, topk_idx)
    assert content.shape == (2, 6, 32)
    for b in range(2):
        for k in range(6):
            for d in range(32):
                assert content[b, k, d] == memory[b, int(topk_idx[b, k]), d]
    ref_boxes = selector.enc_box(memory).sigmoid()[torch.arange(2)[:, None], topk_idx]
    assert torch.allclose(queries, content + selector.query_pos(ref_boxes))
    print("ok")


if __name__ == "__main__":
    main()
