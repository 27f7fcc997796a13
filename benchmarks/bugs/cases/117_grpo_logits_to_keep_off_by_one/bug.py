import torch
import torch.nn as nn


class PolicyLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids, logits_to_keep=0):
        # input_ids: [B, L]
        hidden, _ = self.mix(self.embed(input_ids))  # [B, L, D]
        if logits_to_keep:
            hidden = hidden[:, -logits_to_keep:]  # only the positions the caller scores
        return self.lm_head(hidden)  # [B, logits_to_keep or L, V]


def selective_log_softmax(logits, index):
    # logits: [B, T, V], index: [B, T]
    logps = torch.gather(logits.log_softmax(dim=-1), dim=-1, index=index.unsqueeze(-1))  # [B, T, 1]
    return logps.squeeze(-1)  # [B, T]


def get_per_token_logps(model, input_ids, logits_to_keep):
    # input_ids: [B, P + C], prompt followed by C = logits_to_keep completion tokens
    logits = model(input_ids, logits_to_keep=logits_to_keep)  # [B, C, V]
    logits = logits[:, :-1, :]  # the last logit predicts past the completion
    completion_ids = input_ids[:, -logits_to_keep:]  # [B, C]
    return selective_log_softmax(logits, completion_ids)  # [B, C]


def grpo_loss(per_token_logps, old_logps, advantages, completion_mask, beta_clip=0.2):
    # per_token_logps, old_logps, completion_mask: [B, C]; advantages: [B]
    ratio = torch.exp(per_token_logps - old_logps)  # [B, C]
    clipped = ratio.clamp(1 - beta_clip, 1 + beta_clip)
    per_token = -torch.min(ratio * advantages[:, None], clipped * advantages[:, None])  # [B, C]
    return ((per_token * completion_mask).sum(1) / completion_mask.sum(1)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PolicyLM(vocab_size=64, dim=16)
    prompt = torch.randint(0, 64, (2, 5))
    completion = torch.randint(0, 64, (2, 6))
    input_ids = torch.cat([prompt, completion], dim=1)
    logps = get_per_token_logps(model, input_ids, logits_to_keep=completion.size(1))
    loss = grpo_loss(logps, logps.detach(), torch.tensor([1.0, -1.0]), torch.ones(2, 6))
    full = model(input_ids).log_softmax(-1)
    ref = torch.stack([torch.stack([full[b, 4 + j, completion[b, j]] for j in range(6)]) for b in range(2)])
    print("completion logps match:", torch.allclose(logps, ref, atol=1e-6), "loss:", loss.item())
