import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class EncoderProposalHead(nn.Module):
    def __init__(self, d_model: int, num_classes: int):
        super().__init__()
        self.class_embed = nn.Linear(d_model, num_classes)
        self.bbox_embed = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, 4))

    def forward(
        self, memory: Float[Tensor, "batch tokens d_model"]
    ) -> tuple[Float[Tensor, "batch tokens classes"], Float[Tensor, "batch tokens 4"]]:
        return self.class_embed(memory), self.bbox_embed(memory)


def select_topk_proposals(
    enc_outputs_class: Float[Tensor, "batch tokens classes"],
    enc_outputs_coord_unact: Float[Tensor, "batch tokens 4"],
    num_queries: int,
) -> tuple[Int[Tensor, "batch queries"], Float[Tensor, "batch queries 4"]]:
    topk_proposals = torch.topk(enc_outputs_class.max(-1)[0], num_queries, dim=1)[1]
    topk_coords_unact = torch.gather(enc_outputs_coord_unact, 1, topk_proposals.unsqueeze(-1))
    reference_points = topk_coords_unact.detach().sigmoid()
    return topk_proposals, reference_points


def to_absolute_boxes(
    reference_points: Float[Tensor, "batch queries 4"], image_sizes: Float[Tensor, "batch 2"]
) -> Float[Tensor, "batch queries 4"]:
    w, h = image_sizes.unbind(-1)
    scale = torch.stack([w, h, w, h], dim=-1)[:, None, :]
    return reference_points * scale


if __name__ == "__main__":
    torch.manual_seed(0)
    head = EncoderProposalHead(d_model=32, num_classes=5)
    memory = torch.randn(2, 50, 32)
    image_sizes = torch.tensor([[640.0, 480.0], [800.0, 600.0]])
    with torch.no_grad():
        enc_class, enc_coord = head(memory)
        topk, reference_points = select_topk_proposals(enc_class, enc_coord, num_queries=10)
        boxes = to_absolute_boxes(reference_points, image_sizes)
    ref = torch.zeros(2, 10, 4)
    for b in range(2):
        w, h = image_sizes[b].tolist()
        for q in range(10):
            cx, cy, bw, bh = enc_coord[b, int(topk[b, q])].sigmoid().tolist()
            ref[b, q] = torch.tensor([cx * w, cy * h, bw * w, bh * h])
    print("reference_points:", tuple(reference_points.shape), "boxes:", tuple(boxes.shape),
          "match loop reference:", torch.allclose(boxes, ref), "first box:", boxes[0, 0].tolist(), "ref:", ref[0, 0].tolist())
