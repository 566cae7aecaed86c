/** The OpenAPI tag of the video calls; their schemas are declared in the contract (docs/api.md). */
export const tags = ['video'];
