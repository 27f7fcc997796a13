import torch
import torch.nn as nn

MODEL_CONFIG = {"vocab_size": 64, "hidden_size": 48, "num_layers": 2, "seed": 0}
POOLER_CONFIG = {"pooling_type": "STEP", "step_tag_id": 7, "returned_token_ids": [11, 23]}


class TinyCausalLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], cfg["hidden_size"])
        self.layers = nn.ModuleList(
            nn.Linear(cfg["hidden_size"], cfg["hidden_size"]) for _ in range(cfg["num_layers"])
        )
        self.lm_head = nn.Linear(cfg["hidden_size"], cfg["vocab_size"], bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        h = torch.cumsum(h, dim=0) / torch.arange(1, h.shape[0] + 1)[:, None]
        for layer in self.layers:
            h = h + torch.tanh(layer(h))
        return h


class StepPooler:
    def __init__(self, cfg):
        self.step_tag_id = cfg["step_tag_id"]
        self.returned_token_ids = cfg["returned_token_ids"]

    def __call__(self, hidden_states, prompt_token_ids):
        step_positions = prompt_token_ids == self.step_tag_id
        pooled = hidden_states[step_positions]
        if self.returned_token_ids:
            pooled = pooled[:, self.returned_token_ids]
        return pooled.softmax(dim=-1)


def score_steps(model, pooler, prompt_token_ids):
    with torch.no_grad():
        hidden_states = model(prompt_token_ids)
        return pooler(hidden_states, prompt_token_ids)


if __name__ == "__main__":
    torch.manual_seed(MODEL_CONFIG["seed"])
    model = TinyCausalLM(MODEL_CONFIG).eval()
    pooler = StepPooler(POOLER_CONFIG)
    prompt = torch.tensor([3, 15, 40, 2, 9, 7, 31, 5, 19, 7, 44, 8, 7])
    scores = score_steps(model, pooler, prompt)
    print("P(good) per step:", scores[:, 0].tolist())
    with torch.no_grad():
        logits = model.lm_head(model(prompt))
    ref = [logits[t, [11, 23]].softmax(-1)[0].item() for t in range(len(prompt)) if prompt[t] == 7]
    print("P(good) from the LM head:", ref)
