import torch
import torch.nn as nn


def one_hot(indices, num_classes):
    out = torch.zeros(indices.numel(), num_classes, device=indices.device)
    out[torch.arange(indices.numel(), device=indices.device), indices.view(-1)] = 1.0
    return out


class AdversaryObsEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_actions = cfg["grid_cells"]
        self.max_steps = cfg["max_steps"]
        self.net = nn.Linear(cfg["grid_cells"] + cfg["max_steps"], cfg["hidden"])

    def forward(self, last_action, time_step):
        feats = torch.cat([one_hot(last_action, self.num_actions), one_hot(time_step, self.max_steps)], dim=1)
        return torch.relu(self.net(feats)), feats


def rollout_features(cfg, steps):
    torch.manual_seed(cfg["seed"])
    enc = AdversaryObsEncoder(cfg)
    actions = torch.randint(0, cfg["grid_cells"], (steps,))
    times = torch.arange(steps)
    with torch.no_grad():
        _, feats = enc(actions, times)
    return actions, feats


if __name__ == "__main__":
    cfg = {"seed": 1, "grid_cells": 9, "max_steps": 6, "hidden": 16}
    actions, feats = rollout_features(cfg, steps=4)
    for r in range(actions.numel()):
        ref = [0.0] * (cfg["grid_cells"] + cfg["max_steps"])
        ref[actions[r].item()] = 1.0
        ref[cfg["grid_cells"] + r] = 1.0
        assert feats[r].tolist() == ref, (r, feats[r])
    print("ok")
