export { PHONE_MAX_WIDTH, PHONE_QUERY, isPhoneViewport, useIsPhone } from './use-phone';
export { useElementWidth } from './use-element-width';
