import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MMOE(nn.Module):
    def __init__(self, feature_columns, num_experts=3, expert_dim=8, task_types=("binary", "binary")):
        super().__init__()
        self.feature_columns = feature_columns
        self.num_tasks = len(task_types)
        self.embedding_dict = nn.ModuleDict({fc["name"]: nn.Embedding(fc["vocabulary_size"], fc["embedding_dim"]) for fc in feature_columns})
        input_dim = sum(fc["embedding_dim"] for fc in feature_columns)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(input_dim, expert_dim), nn.ReLU()) for _ in range(num_experts))
        self.gates = nn.ModuleList(nn.Linear(input_dim, num_experts) for _ in range(self.num_tasks))
        self.towers = nn.ModuleList(nn.Linear(expert_dim, 1) for _ in range(self.num_tasks))

    def forward(self, X):
        emb = torch.cat([self.embedding_dict[fc["name"]](X[:, i].long()) for i, fc in enumerate(self.feature_columns)], dim=-1)
        expert_outs = torch.stack([expert(emb) for expert in self.experts], dim=1)
        task_outs = []
        for gate, tower in zip(self.gates, self.towers):
            weights = gate(emb).softmax(dim=-1).unsqueeze(-1)
            task_outs.append(torch.sigmoid(tower((weights * expert_outs).sum(dim=1))))
        return torch.cat(task_outs, dim=-1)

    def fit(self, x, y, batch_size=4, epochs=1, lr=0.01):
        loader = DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=False)
        optim = torch.optim.Adam(self.parameters(), lr=lr)
        loss_func = [F.binary_cross_entropy] * self.num_tasks
        history = []
        for _ in range(epochs):
            total = 0.0
            for x_train, y_train in loader:
                y_pred = self(x_train)
                optim.zero_grad()
                loss = sum(loss_func[i](y_pred[:, i], y_train[:, i], reduction="sum") for i in range(self.num_tasks))
                loss.backward()
                optim.step()
                total += loss.item()
            history.append(total / len(x))
        return history


def make_feature_columns(spec):
    return [{"name": name, "vocabulary_size": vocab, "embedding_dim": 4} for name, vocab in spec.items()]


if __name__ == "__main__":
    torch.manual_seed(0)
    spec = {"user_id": 20, "item_id": 30, "city": 5}
    columns = make_feature_columns(spec)
    x = torch.stack([torch.randint(0, vocab, (9,)) for vocab in spec.values()], dim=1).float()
    y = torch.randint(0, 2, (9, 2)).float()
    model = MMOE(columns)
    state = {k: v.clone() for k, v in model.state_dict().items()}
    history = model.fit(x, y, batch_size=4, epochs=2)
    print("per-sample loss by epoch:", [round(v, 4) for v in history])
    # plain-loop reference: same initial weights, the loss summed sample by sample and task by task
    reference = MMOE(columns)
    reference.load_state_dict(state)
    optim = torch.optim.Adam(reference.parameters(), lr=0.01)
    expected = []
    for _ in range(2):
        total = 0.0
        for start in range(0, 9, 4):
            optim.zero_grad()
            loss = 0.0
            for n in range(start, min(start + 4, 9)):
                p = reference(x[n : n + 1])[0]
                for t in range(2):
                    loss = loss - (y[n, t] * torch.log(p[t]) + (1 - y[n, t]) * torch.log(1 - p[t]))
            loss.backward()
            optim.step()
            total += loss.item()
        expected.append(total / 9)
    assert all(abs(a - b) < 1e-4 for a, b in zip(history, expected)), (history, expected)
    print("ok")
