import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class GroupTokenPooling(nn.Module):
    """Builds left/right group tokens from the tracked person features of each volleyball scene."""

    def __init__(self, d_feature: int, d_model: int):
        super().__init__()
        self.person_proj = nn.Linear(d_feature, d_model)
        self.group_proj = nn.Linear(d_model, d_model)

    def gather_group_people(
        self,
        person_track_feats_proj: Float[Tensor, "batch person d_model"],
        group_people_idx: Int[Tensor, "batch group_size"],
    ) -> Float[Tensor, "batch group_size d_model"]:
        feats = person_track_feats_proj.flatten(0, 1)
        return feats[group_people_idx]

    def forward(
        self,
        person_track_feats: Float[Tensor, "batch person d_feature"],
        left_group_people_idx: Int[Tensor, "batch group_size"],
    ) -> Float[Tensor, "batch d_model"]:
        person_track_feats_proj = self.person_proj(person_track_feats)
        left_group_people_repre = self.gather_group_people(person_track_feats_proj, left_group_people_idx)
        return self.group_proj(left_group_people_repre.mean(dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    pooling = GroupTokenPooling(d_feature=32, d_model=16)
    person_track_feats = torch.randn(4, 12, 32)
    left_group_people_idx = torch.stack([torch.randperm(12)[:6] for _ in range(4)])
    group_tokens = pooling(person_track_feats, left_group_people_idx)
    proj = pooling.person_proj(person_track_feats)
    picked = pooling.gather_group_people(proj, left_group_people_idx)
    print("scene 1 group people come from scene 1:", torch.allclose(picked[1, 0], proj[1, left_group_people_idx[1, 0]]))
    print("group tokens:", group_tokens.shape)
