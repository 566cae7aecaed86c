import { defineModule } from '../../platform/resource.ts';

/** 流程 (docs/workflow.md): the engine's services are in place; the routes come with the contract's flow routes. */
export default defineModule(() => {});
