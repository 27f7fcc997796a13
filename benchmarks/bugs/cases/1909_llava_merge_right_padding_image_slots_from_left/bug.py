import torch
import torch.nn as nn


class TinyLlavaForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size, hidden_size, patch_dim, image_token_index, pad_token_id):
        super().__init__()
        self.image_token_index = image_token_index
        self.pad_token_id = pad_token_id
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.multi_modal_projector = nn.Sequential(
            nn.Linear(patch_dim, hidden_size), nn.GELU(), nn.Linear(hidden_size, hidden_size)
        )

    def get_image_features(self, pixel_values):
        """pixel_values: (num_images, num_patches, patch_dim) -> (num_images, num_patches, hidden_size)"""
        return self.multi_modal_projector(pixel_values)

    def _merge_input_ids_with_image_features(self, image_features, inputs_embeds, input_ids, attention_mask):
        """Expand every image token into its patch features.

        image_features: (num_images, num_image_patches, embed_dim)
        inputs_embeds:  (batch_size, sequence_length, embed_dim)
        input_ids:      (batch_size, sequence_length), padded with pad_token_id (left or right)
        attention_mask: (batch_size, sequence_length)
        returns final_embedding (batch_size, max_embed_dim, embed_dim),
                final_attention_mask (batch_size, max_embed_dim),
                position_ids (batch_size, max_embed_dim)
        """
        num_images, num_image_patches, embed_dim = image_features.shape
        batch_size, sequence_length = input_ids.shape
        left_padding = not torch.sum(input_ids[:, -1] == torch.tensor(self.pad_token_id))
        # 1. Create a mask to know where special image tokens are
        special_image_token_mask = input_ids == self.image_token_index
        num_special_image_tokens = torch.sum(special_image_token_mask, dim=-1)
        # Compute the maximum embed dimension
        max_embed_dim = (num_special_image_tokens.max() * (num_image_patches - 1)) + sequence_length
        batch_indices, non_image_indices = torch.where(input_ids != self.image_token_index)

        # 2. Compute the positions where text should be written
        new_token_positions = torch.cumsum((special_image_token_mask * (num_image_patches - 1) + 1), -1) - 1
        nb_image_pad = max_embed_dim - 1 - new_token_positions[:, -1]
        if left_padding:
            new_token_positions += nb_image_pad[:, None]  # offset for left padding
        text_to_overwrite = new_token_positions[batch_indices, non_image_indices]

        # 3. Create the full embedding, already padded to the maximum position
        final_embedding = torch.zeros(batch_size, max_embed_dim, embed_dim, dtype=inputs_embeds.dtype)
        final_attention_mask = torch.zeros(batch_size, max_embed_dim, dtype=attention_mask.dtype)

        # 4. Fill the embeddings based on the mask
        final_embedding[batch_indices, text_to_overwrite] = inputs_embeds[batch_indices, non_image_indices]
        final_attention_mask[batch_indices, text_to_overwrite] = attention_mask[batch_indices, non_image_indices]

        # 5. Fill the embeddings corresponding to the images. Anything that is not `text_positions` needs filling
        image_to_overwrite = torch.full((batch_size, max_embed_dim), True, dtype=torch.bool)
        image_to_overwrite[batch_indices, text_to_overwrite] = False
        image_to_overwrite &= image_to_overwrite.cumsum(-1) - 1 >= nb_image_pad[:, None]

        if image_to_overwrite.sum() != image_features.shape[:-1].numel():
            raise ValueError(
                f"The input provided to the model are wrong. The number of image tokens is {torch.sum(special_image_token_mask)} while"
                f" the number of image given to the model is {num_images}. This prevents correct indexing and breaks batch generation."
            )

        final_embedding[image_to_overwrite] = image_features.contiguous().reshape(-1, embed_dim)
        final_attention_mask |= image_to_overwrite
        position_ids = (final_attention_mask.cumsum(-1) - 1).masked_fill_((final_attention_mask == 0), 1)

        # 6. Mask out the embedding at padding positions, as we later use the past_key_value value to determine the non-attended tokens.
        batch_indices, pad_indices = torch.where(input_ids == self.pad_token_id)
        indices_to_mask = new_token_positions[batch_indices, pad_indices]
        final_embedding[batch_indices, indices_to_mask] = 0
        return final_embedding, final_attention_mask, position_ids

    def forward(self, input_ids, pixel_values, attention_mask):
        inputs_embeds = self.embed_tokens(input_ids)
        image_features = self.get_image_features(pixel_values)
        return self._merge_input_ids_with_image_features(image_features, inputs_embeds, input_ids, attention_mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    IMG, PAD = 31, 0
    model = TinyLlavaForConditionalGeneration(vocab_size=32, hidden_size=8, patch_dim=6, image_token_index=IMG, pad_token_id=PAD)
    # "System prompt<image>Caption 2<image>Caption 3" and "Prompt<image>Caption 1<pad>" (right padded)
    input_ids = torch.tensor([[3, IMG, 4, 5, IMG, 6], [7, IMG, 8, 9, 10, PAD]])
    attention_mask = (input_ids != PAD).long()
    pixel_values = torch.randn(3, 2, 6)
    with torch.no_grad():
        merged, merged_mask, position_ids = model(input_ids, pixel_values, attention_mask)
        image_features = model.get_image_features(pixel_values)
    row = merged[1]
    slots = [i for i in range(row.shape[0]) if any(torch.allclose(row[i], f) for f in image_features[2])]
    print("slots holding the image patches of the right-padded prompt:", slots, "(the image token sits at position 1, so they belong at [1, 2])")
    print("attention mask of that row:", merged_mask[1].tolist())
