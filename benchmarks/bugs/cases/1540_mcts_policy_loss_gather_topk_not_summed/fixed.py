import torch
import torch.nn as nn


def masked_mean(values, mask):
    # values: [B, T, ...]  mask: [B, T] bool; averages every entry of the selected positions
    return values[mask.bool()].mean()


class PolicyValueHead(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.lm_head = nn.Linear(hidden, vocab)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, hidden_states):
        # hidden_states: [B, T, H] -> logits [B, T, V], values [B, T]
        return self.lm_head(hidden_states), self.value_head(hidden_states).squeeze(-1)


def deepsearch_loss(logits, values, batch, policy_weight=1.0, value_weight=1.0):
    # logits: [B, T, V]  values: [B, T]
    # batch["actions"]: [B, T, K] top-k token ids explored by the tree search
    # batch["action_probs"]: [B, T, K] normalised visit counts of those children
    # batch["reward"]: [B, T]  batch["mcts_mask"]: [B, T] bool
    log_probs = torch.log_softmax(logits, dim=-1)  # [B, T, V]
    mask = batch["mcts_mask"]
    value_loss = masked_mean(value_weight * (values - batch["reward"]) ** 2, mask)

    policy_mask = (batch["reward"] > 0) & mask  # [B, T]
    policy_loss = (log_probs.gather(dim=-1, index=batch["actions"].long()) * batch["action_probs"]).sum(-1)
    policy_loss = masked_mean(policy_weight * policy_loss, policy_mask)
    return value_loss - policy_loss, value_loss, policy_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    B, T, H, V, K = 2, 6, 16, 30, 4
    head = PolicyValueHead(H, V)
    hidden_states = torch.randn(B, T, H)
    visits = torch.rand(B, T, K) + 0.1
    batch = {
        "actions": torch.stack([torch.randperm(V)[:K] for _ in range(B * T)]).view(B, T, K),
        "action_probs": visits / visits.sum(-1, keepdim=True),
        "reward": torch.tensor([[1.0] * T, [0.0] * T]),
        "mcts_mask": torch.tensor([[True] * 5 + [False], [True] * T]),
    }
    with torch.no_grad():
        logits, values = head(hidden_states)
        loss, value_loss, policy_loss = deepsearch_loss(logits, values, batch)
        logp = torch.log_softmax(logits, dim=-1)
        terms = []
        for b in range(B):
            for t in range(T):
                if batch["mcts_mask"][b, t] and batch["reward"][b, t] > 0:
                    terms.append(sum(float(batch["action_probs"][b, t, k]) * float(logp[b, t, batch["actions"][b, t, k]])
                                     for k in range(K)))
        ref_policy = sum(terms) / len(terms)
    assert abs(policy_loss.item() - ref_policy) < 1e-5, (policy_loss.item(), ref_policy)
    ref_value = sum(float((values[b, t] - batch["reward"][b, t]) ** 2) for b in range(B) for t in range(T)
                    if batch["mcts_mask"][b, t]) / int(batch["mcts_mask"].sum())
    assert abs(value_loss.item() - ref_value) < 1e-5
    print("ok")
