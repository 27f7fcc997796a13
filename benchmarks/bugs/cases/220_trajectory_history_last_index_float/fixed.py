import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class NodeHistoryEncoder(nn.Module):
    def __init__(self, state_dim: int, hidden_dim: int):
        super().__init__()
        self.lstm = nn.LSTM(state_dim, hidden_dim, batch_first=True)

    def forward(
        self, node_history_st: Float[Tensor, "batch max_ht state"], first_history_indices: Int[Tensor, " batch"]
    ) -> Float[Tensor, "batch hidden"]:
        # histories are left-aligned and NaN-padded at the end: a history with first_history_index = f
        # holds max_ht + 1 - f real steps, so its last real step sits at position -(f + 1)
        history = torch.nan_to_num(node_history_st)
        outputs, _ = self.lstm(history)
        last_index_per_sequence = -(first_history_indices + 1)
        return outputs[torch.arange(first_history_indices.shape[0]), last_index_per_sequence]


class AgentDataset:
    """Histories of agents in a scene; timesteps come from the scene's float time axis."""

    def __init__(self, tracks: dict, max_ht: int):
        self.tracks = tracks
        self.max_ht = max_ht
        self.items = [(agent, t) for agent, (start, states) in tracks.items() for t in (start + len(states) - 1,)]

    def __getitem__(self, i):
        agent, t = self.items[i]
        start, states = self.tracks[agent]
        history_points = min(t - start, self.max_ht)
        first_history_index = self.max_ht - history_points
        n_steps = int(history_points) + 1
        history = np.full((self.max_ht + 1, states.shape[1]), np.nan)
        history[:n_steps] = states[-n_steps:]
        return first_history_index, torch.tensor(history, dtype=torch.float32)

    def __len__(self):
        return len(self.items)


def collate(batch):
    first_history_index = torch.tensor([b[0] for b in batch]).long()  # frame arithmetic yields floats
    histories = torch.stack([b[1] for b in batch])
    return first_history_index, histories


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    scene_timesteps = np.arange(0.0, 12.0)  # frame numbers of the scene
    tracks = {
        "ped_1": (scene_timesteps[0], rng.normal(size=(9, 4))),
        "ped_2": (scene_timesteps[5], rng.normal(size=(4, 4))),
        "veh_1": (scene_timesteps[2], rng.normal(size=(10, 4))),
    }
    dataset = AgentDataset(tracks, max_ht=7)
    first_history_index, histories = collate([dataset[i] for i in range(len(dataset))])
    encoder = NodeHistoryEncoder(state_dim=4, hidden_dim=8)
    with torch.no_grad():
        encoded = encoder(histories, first_history_index)
        for row, (agent, _) in enumerate(dataset.items):
            start, states = tracks[agent]
            n_steps = min(len(states), 8)
            steps = torch.tensor(states[-n_steps:], dtype=torch.float32).unsqueeze(0)
            out, _ = encoder.lstm(steps)
            for d in range(8):
                assert abs(encoded[row, d].item() - out[0, -1, d].item()) < 1e-5
    print("ok")
