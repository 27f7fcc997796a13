import torch

# Simulated FMCW radar frames: every target adds a short echo (L samples) into the
# raw range profile of its frame, starting at the target's range bin.
CFG = {"frames": 4, "channels": 2, "pulses": 3, "range_bins": 32, "echo_len": 8}


def sample_targets(cfg, gen):
    n = 10
    echo = torch.randn(n, cfg["channels"], cfg["pulses"], cfg["echo_len"], generator=gen)  # [N, C, P, L]
    frame_id = torch.randint(0, cfg["frames"], (n,), generator=gen)                         # [N]
    range_bin = torch.randint(0, cfg["range_bins"], (n,), generator=gen)                    # [N]
    return echo, frame_id, range_bin


def render_frames(echo, frame_id, range_bin, num_frames, num_bins):
    # echo [N, C, P, L], frame_id [N], range_bin [N] -> frames [B, C, P, R + L]
    n, c, p, l = echo.shape
    frames = echo.new_zeros(num_frames, c, p, num_bins + l)
    b_idx = frame_id.view(n, 1, 1, 1).expand(n, c, p, l)
    c_idx = torch.arange(c).view(1, c, 1, 1).expand(n, c, p, l)
    p_idx = torch.arange(p).view(1, 1, p, 1).expand(n, c, p, l)
    r_idx = (range_bin.view(n, 1, 1, 1) + torch.arange(l).view(1, 1, 1, l)).expand(n, c, p, l)
    frames[b_idx, c_idx, p_idx, r_idx] += echo
    return frames


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(3)
    echo, frame_id, range_bin = sample_targets(CFG, gen)
    frames = render_frames(echo, frame_id, range_bin, CFG["frames"], CFG["range_bins"])
    print("sum of all echoes:   ", round(echo.sum().item(), 4))
    print("sum of rendered data:", round(frames.sum().item(), 4))
    print("targets per frame:", torch.bincount(frame_id, minlength=CFG["frames"]).tolist())
