import torch
import torch.nn as nn
import torch.nn.functional as F

IMAGE_PAD_ID = 7
PAD_ID = 0
EOS_ID = 1


class TinyVisionTower(nn.Module):
    def __init__(self, patch_dim, hidden_size, merge_size):
        super().__init__()
        self.merge_size = merge_size
        self.proj = nn.Linear(patch_dim * merge_size, hidden_size)

    def forward(self, pixel_values):
        merged = pixel_values.reshape(-1, pixel_values.size(-1) * self.merge_size)
        return self.proj(merged)


class TinyVLForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed_tokens = nn.Embedding(config["vocab_size"], config["hidden_size"])
        self.visual = TinyVisionTower(config["patch_dim"], config["hidden_size"], config["merge_size"])
        self.mixer = nn.GRU(config["hidden_size"], config["hidden_size"], batch_first=True)
        self.lm_head = nn.Linear(config["hidden_size"], config["vocab_size"])

    def forward(self, input_ids, pixel_values):
        inputs_embeds = self.embed_tokens(input_ids)
        image_embeds = self.visual(pixel_values)
        image_mask = input_ids == self.config["image_token_id"]
        inputs_embeds[image_mask] = image_embeds
        hidden, _ = self.mixer(inputs_embeds)
        return self.lm_head(hidden)


def get_per_token_logps(model, input_ids, pixel_values, logits_to_keep):
    logits = model(input_ids, pixel_values)[:, :-1]
    logits = logits[:, -logits_to_keep:]
    targets = input_ids[:, -logits_to_keep:]
    return logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)


class GRPOTrainer:
    def __init__(self, model, rollout_engine):
        self.model = model
        self.rollout_engine = rollout_engine

    def compute_old_logps(self, prompt_ids, pixel_values):
        completion_ids = torch.tensor(self.rollout_engine(prompt_ids))
        prompt_completion_ids = torch.cat([prompt_ids, completion_ids], dim=1)
        with torch.no_grad():
            return get_per_token_logps(self.model, prompt_completion_ids, pixel_values, completion_ids.size(1))


def make_prompt(text_ids, n_image_tokens):
    return torch.tensor([[2] + [IMAGE_PAD_ID] * n_image_tokens + text_ids])


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"vocab_size": 24, "hidden_size": 16, "patch_dim": 6, "merge_size": 4, "image_token_id": IMAGE_PAD_ID}
    model = TinyVLForCausalLM(config).eval()
    pixel_values = torch.randn(16, 6)
    prompt_ids = make_prompt([12, 9, 15], n_image_tokens=4)

    def rollout_engine(prompt):
        # the sampled answer as the inference engine returns it; it contains an image-pad id
        return [[13, 20, IMAGE_PAD_ID, 11, EOS_ID]]

    trainer = GRPOTrainer(model, rollout_engine)
    logps = trainer.compute_old_logps(prompt_ids, pixel_values)
    print(logps)
