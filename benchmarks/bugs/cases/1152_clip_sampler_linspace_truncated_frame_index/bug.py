import torch

CFG = {"num_frames": 16, "crop": 32, "channels": 3}


def uniform_positions(n_total, n_keep):
    rel = torch.linspace(0, 1, n_keep)
    return (rel * (n_total - 1)).long()


class UniformClipSampler:
    def __init__(self, cfg):
        self.n_keep = cfg["num_frames"]

    def __call__(self, video):
        idx = uniform_positions(video.shape[0], self.n_keep)
        return video.index_select(0, idx), idx


def load_video(n_total, cfg):
    frames = torch.arange(n_total, dtype=torch.float32)
    return frames.view(-1, 1, 1, 1).expand(n_total, cfg["channels"], cfg["crop"], cfg["crop"]).clone()


if __name__ == "__main__":
    video = load_video(301, CFG)
    clip, idx = UniformClipSampler(CFG)(video)
    print("sampled frames:", clip[:, 0, 0, 0].long().tolist())
    print("stride between picks:", (idx[1:] - idx[:-1]).tolist())
