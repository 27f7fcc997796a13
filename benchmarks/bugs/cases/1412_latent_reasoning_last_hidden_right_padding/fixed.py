import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab_size=50, hidden=24, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.blocks = nn.ModuleList([nn.GRU(hidden, hidden, batch_first=True) for _ in range(layers)])

    def forward(self, input_ids, attention_mask):
        # input_ids, attention_mask: [B, L]
        h = self.embed(input_ids) * attention_mask.unsqueeze(-1)  # [B, L, H]
        hidden_states = [h]
        for block in self.blocks:
            h, _ = block(h)
            hidden_states.append(h)
        return hidden_states  # list of [B, L, H]


class LatentReasoner:
    def __init__(self, model, pad_token_id=0):
        self.model = model
        self.pad_token_id = pad_token_id

    def batch_prompts(self, prompts):
        # right padding, as the tokenizer does by default
        max_len = max(len(p) for p in prompts)
        input_ids = torch.full((len(prompts), max_len), self.pad_token_id, dtype=torch.long)
        attention_mask = torch.zeros(len(prompts), max_len, dtype=torch.long)
        for i, p in enumerate(prompts):
            input_ids[i, : len(p)] = torch.tensor(p)
            attention_mask[i, : len(p)] = 1
        return input_ids, attention_mask

    @torch.no_grad()
    def first_latent_state(self, prompts):
        input_ids, attention_mask = self.batch_prompts(prompts)
        hidden_states = self.model(input_ids, attention_mask)
        last_token_indices = attention_mask.sum(dim=1) - 1  # [B]
        batch_idx = torch.arange(input_ids.shape[0])
        last_hidden = hidden_states[-1][batch_idx, last_token_indices, :]  # [B, H]
        return last_hidden


if __name__ == "__main__":
    torch.manual_seed(0)
    reasoner = LatentReasoner(TinyDecoder())
    prompts = [[5, 8, 13, 21, 34, 3], [7, 9, 11], [4, 6, 12, 18]]
    latents = reasoner.first_latent_state(prompts)
    with torch.no_grad():
        for i, p in enumerate(prompts):
            ids = torch.tensor([p])
            states = reasoner.model(ids, torch.ones_like(ids))
            expected = states[-1][0, len(p) - 1]
            assert torch.allclose(latents[i], expected, atol=1e-6), i
    print("ok")
