import torch
from jaxtyping import Float
from torch import Tensor


def extract_frames(
    video: Float[Tensor, "time channel height width"], num_frames: int
) -> list[Float[Tensor, "channel height width"]]:
    total = video.shape[0]
    idx = torch.linspace(0, total - 1, num_frames).round().long()
    frames = video.index_select(0, idx)
    return list(frames.unbind(0))


class FrameRewardModel(torch.nn.Module):
    def __init__(self, channels: int = 3):
        super().__init__()
        self.head = torch.nn.Linear(channels, 1)

    def forward(self, image: Float[Tensor, "channel height width"]) -> Float[Tensor, ""]:
        pooled = image.mean(dim=(1, 2))
        return self.head(pooled).squeeze(-1)


def video_reward(
    video: Float[Tensor, "time channel height width"], scorer: FrameRewardModel, num_frames: int = 3
) -> Float[Tensor, ""]:
    scores = [scorer(frame) for frame in extract_frames(video, num_frames)]
    return torch.stack(scores).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    scorer = FrameRewardModel(channels=3)
    videos = [torch.rand(16, 3, 32, 32) * torch.linspace(0.0, 1.0, 16)[:, None, None, None] ** 3 for _ in range(4)]
    with torch.no_grad():
        rewards = torch.stack([video_reward(v, scorer) for v in videos])

        ref = []
        for v in videos:
            t = v.shape[0]
            picks = [round(k * (t - 1) / 2) for k in range(3)]
            ref.append(sum(scorer(v[p]) for p in picks) / 3)
        ref = torch.stack(ref)
    assert len(extract_frames(videos[0], 3)) == 3
    assert torch.allclose(rewards, ref, atol=1e-6)
    print("ok")
