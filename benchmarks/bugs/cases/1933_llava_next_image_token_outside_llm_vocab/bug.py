from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class LlavaNextConfig:
    text_vocab_size: int = 40      # rows of the language model embedding
    image_token_index: int = 41    # added to the tokenizer only, not to the LLM embedding
    hidden_size: int = 24
    vision_hidden_size: int = 12
    patch_dim: int = 48
    patches_per_image: int = 4


class LlavaNextMultiModalProjector(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.linear_1 = nn.Linear(config.vision_hidden_size, config.hidden_size)
        self.act = nn.GELU()
        self.linear_2 = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, image_features):
        return self.linear_2(self.act(self.linear_1(image_features)))


class LlavaNextForConditionalGeneration(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.vision_tower = nn.Linear(config.patch_dim, config.vision_hidden_size)
        self.multi_modal_projector = LlavaNextMultiModalProjector(config)
        self.embed_tokens = nn.Embedding(config.text_vocab_size, config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.text_vocab_size)

    def get_image_features(self, pixel_values):
        # pixel_values: [num_images, patches_per_image, patch_dim]
        image_features = self.multi_modal_projector(self.vision_tower(pixel_values))
        return image_features.flatten(0, 1)                      # [num_images * patches, hidden]

    def forward(self, input_ids, pixel_values):
        # input_ids: [batch, seq_len] with one placeholder per image patch
        inputs_embeds = self.embed_tokens(input_ids)              # [batch, seq_len, hidden]
        image_features = self.get_image_features(pixel_values)
        special_image_mask = (input_ids == self.config.image_token_index).unsqueeze(-1)
        special_image_mask = special_image_mask.expand_as(inputs_embeds)
        inputs_embeds = inputs_embeds.masked_scatter(special_image_mask, image_features)
        return self.lm_head(inputs_embeds)                        # [batch, seq_len, vocab]


def build_prompt(text_ids, config, num_images):
    image_tokens = [config.image_token_index] * (config.patches_per_image * num_images)
    return [1] + image_tokens + text_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    config = LlavaNextConfig()
    model = LlavaNextForConditionalGeneration(config).eval()
    prompts = [build_prompt([7, 8, 9], config, 1), build_prompt([10, 11, 12], config, 1)]
    input_ids = torch.tensor(prompts)
    pixel_values = torch.randn(2, config.patches_per_image, config.patch_dim)
    with torch.no_grad():
        logits = model(input_ids, pixel_values)
    print("next-token prediction:", logits[:, -1].argmax(-1).tolist())
