import torch

VLM_CONFIG = {"num_heads": 4, "head_dim": 8, "patches_per_image": 8}


def extend_mask_for_cached_step(attention_mask, first_layer_keys):
    # attention_mask:   [B, T_text]            mask the caller kept for the text-level prompt
    # first_layer_keys: [B, H, T_past, D]      cache after the image token became P patches
    batch_size, text_len = attention_mask.shape
    target_len = first_layer_keys.shape[2] + 1                       # T_past + 1 (new token)
    key_probe = first_layer_keys[:, 0, :, 0]                         # [B, T_past]
    batch_index, dead_positions = torch.where(key_probe == 0)        # padded slots hold zero keys

    extended = torch.ones(batch_size, target_len - text_len, dtype=attention_mask.dtype)
    extended[batch_index, dead_positions] = 0
    return torch.cat([attention_mask, extended], dim=1)              # [B, T_past + 1]


def build_cache(text_mask, cfg):
    # image token at position 0 of each prompt is expanded into P patch keys
    batch_size, text_len = text_mask.shape
    past_len = text_len - 1 + cfg["patches_per_image"]
    keys = torch.randn(batch_size, cfg["num_heads"], past_len, cfg["head_dim"]).abs() + 0.1
    for b in range(batch_size):
        pad = int((text_mask[b] == 0).sum())
        if pad:
            keys[b, :, past_len - pad:] = 0.0                          # right padding of the prompt
    return keys


if __name__ == "__main__":
    torch.manual_seed(0)
    text_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]])
    keys = build_cache(text_mask, VLM_CONFIG)
    step_mask = extend_mask_for_cached_step(text_mask, keys)
    print("step mask:", tuple(step_mask.shape))
    print(step_mask)
