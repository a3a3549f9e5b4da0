// Starts Swagger UI on the contract the gateway serves. validatorUrl: null keeps the page from calling
// validator.swagger.io (the CSP would refuse it anyway); the real-time bridge is described in /api/v1/asyncapi.yaml.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.yaml',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis]
  });
});
